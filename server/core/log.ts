// Logs are JSON lines on stdout (events) and stderr (errors), one object per line.

export function logEvent(event: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...fields })}\n`);
}

export function logError(event: string, error: unknown, fields: Record<string, unknown> = {}): void {
  const detail = error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...fields, ...detail })}\n`);
}

// Logs are JSON lines on stdout (events) and stderr (errors), one object per line.
//
// Logging must never take the service down. A pipe whose reader stops reading would make
// Bun buffer every line in memory (RSS grew 50 -> 806 MB over 1.85 M access-log lines),
// and a reader that exits turns the next write into an EPIPE error that kills the process.
// So each stream takes at most MAX_BACKLOG_BYTES beyond what the pipe accepted; past
// that, lines are dropped and counted (zonetime_log_lines_dropped_total), as Docker's
// non-blocking log mode does with its bounded buffer. A stream that failed (EPIPE: the
// reader is gone) drops every later line, counted too.

/** How much one stream may hold in memory while its reader is not keeping up (Docker's default max-buffer-size). */
export const MAX_BACKLOG_BYTES = 1 << 20;

class LineSink {
  /** Bytes handed to the stream since it last said its buffer was full and has not drained since (0: flowing). */
  private backlog = 0;
  /** Lines inside `backlog`: lost with it if the stream fails. */
  private backlogLines = 0;
  private failed = false;
  dropped = 0;

  constructor(private readonly stream: NodeJS.WriteStream) {
    stream.on("error", () => {
      // At least the line whose write failed is lost, and whatever was still buffered.
      this.dropped += Math.max(1, this.backlogLines);
      this.failed = true;
    });
    stream.on("drain", () => {
      this.backlog = 0;
      this.backlogLines = 0;
    });
  }

  write(line: string): void {
    if (this.failed || this.backlog > MAX_BACKLOG_BYTES) {
      this.dropped++;
      return;
    }
    try {
      // false: the stream buffered it in memory; what follows counts against the backlog until "drain".
      if (!this.stream.write(line) || this.backlog > 0) {
        this.backlog += line.length;
        this.backlogLines++;
      }
    } catch {
      this.failed = true;
      this.dropped++;
    }
  }
}

const stdout = new LineSink(process.stdout);
const stderr = new LineSink(process.stderr);

export function logEvent(event: string, fields: Record<string, unknown> = {}): void {
  stdout.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...fields })}\n`);
}

export function logError(event: string, error: unknown, fields: Record<string, unknown> = {}): void {
  const detail = error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
  stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...fields, ...detail })}\n`);
}

/** Lines this process could not write (its reader too slow or gone), stdout and stderr together. */
export function droppedLogLines(): number {
  return stdout.dropped + stderr.dropped;
}

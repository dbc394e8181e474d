// Configuration, from the environment, validated once at start: a bad value stops the
// process with a message that names the variable.

export interface Config {
  port: number;
  /** null: every interface, IPv6 and IPv4, falling back to IPv4 alone. */
  host: string | null;
  dataDir: string;
  accessLog: boolean;
}

export class ConfigError extends Error {}

function integer(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, not "${text}"`);
  }
  return Number(text);
}

function flag(env: Record<string, string | undefined>, name: string): boolean {
  const text = (env[name] ?? "off").toLowerCase();
  if (text === "on" || text === "true" || text === "1") return true;
  if (text === "off" || text === "false" || text === "0" || text === "") return false;
  throw new ConfigError(`${name} must be "on" or "off", not "${env[name]}"`);
}

export function readConfig(env: Record<string, string | undefined> = process.env, defaultDataDir = "generated"): Config {
  const host = env.HOST?.trim() || null;
  if (host !== null && !/^[0-9A-Za-z.:_-]{1,255}$/.test(host)) throw new ConfigError(`HOST is not an address or host name: "${host}"`);
  return {
    port: integer(env, "PORT", 8080, 0, 65535),
    host: host === "::" ? null : host,
    dataDir: env.DATA_DIR?.trim() || defaultDataDir,
    accessLog: flag(env, "ACCESS_LOG"),
  };
}

export type LogFields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** One JSON line per entry, so log collectors read the fields without parsing prose. */
export function jsonLineLogger(write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const entry = (level: string) => (message: string, fields: LogFields = {}) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
  return { info: entry('info'), warn: entry('warn'), error: entry('error') };
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

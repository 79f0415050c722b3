/** The poller's own log lines (JSON, as the Lambda service's would be), apart from the handler's. */
export function streamLog(level: 'WARN' | 'ERROR', message: string, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, message, ...fields });
  if (level === 'ERROR') console.error(line);
  else console.warn(line);
}

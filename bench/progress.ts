/**
 * Progress lines go to stderr: a phase's stdout carries what its handlers log, which the
 * orchestrator discards (logging is part of the measured work, reading it is not).
 */
export function progress(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

import { ApiError, Interrupted, UsageError } from './errors.ts';

/** The CLI's exit codes; `--help`, the README and docs/ci.md list the same. */
export const EXIT = {
  /** No open finding at or above the threshold (or none new, with --new-only). */
  passed: 0,
  /** Open findings at or above the threshold. */
  gateFailed: 1,
  /** A bad flag or environment, or a 4xx from the API (unknown project, bad key): fix the call. */
  usage: 2,
  /** The scan failed, was cancelled or timed out, or the API could not be reached after retries. */
  incomplete: 3,
} as const;

/** Shell convention: 128 plus the signal's number. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/** The exit code for an error that ended the run. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof Interrupted) return SIGNAL_EXIT[error.signal];
  if (error instanceof UsageError) return EXIT.usage;
  // A 4xx is about the request (key, project, flags), so trying again in the next build will not help.
  if (error instanceof ApiError) return error.retryable ? EXIT.incomplete : EXIT.usage;
  // A scan that failed, was cancelled or timed out, and anything unexpected: there is no verdict.
  return EXIT.incomplete;
}

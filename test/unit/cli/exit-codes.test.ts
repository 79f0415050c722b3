import { describe, expect, it } from 'vitest';
import { ApiError, Interrupted, ScanNotCompleted, UsageError } from '../../../sdk/cli/src/errors.ts';
import { EXIT, exitCodeOf } from '../../../sdk/cli/src/exit-codes.ts';

const apiError = (status: number, code = `http_${status}`) => new ApiError({ status, code, title: 'T', detail: 'D' });

describe('exit codes', () => {
  it('are 0 to pass, 1 to fail the gate, 2 for usage, 3 without a verdict', () => {
    expect(EXIT).toEqual({ passed: 0, gateFailed: 1, usage: 2, incomplete: 3 });
  });

  it('make a bad flag or variable and every final 4xx a usage error (2)', () => {
    expect(exitCodeOf(new UsageError('--project <id> is required.'))).toBe(2);
    for (const status of [400, 401, 403, 404, 409, 413, 422]) expect(exitCodeOf(apiError(status)), String(status)).toBe(2);
  });

  it('make what retries could not get past a missing verdict (3)', () => {
    for (const status of [0, 408, 429, 500, 502, 503]) expect(exitCodeOf(apiError(status)), String(status)).toBe(3);
    expect(exitCodeOf(apiError(409, 'idempotency_request_in_progress'))).toBe(3);
  });

  it('make a scan that failed, was cancelled or timed out, and anything unexpected, 3', () => {
    for (const outcome of ['failed', 'cancelled', 'timed_out'] as const) expect(exitCodeOf(new ScanNotCompleted('scn_1', outcome, 'x'))).toBe(3);
    expect(exitCodeOf(new TypeError('bug'))).toBe(3);
  });

  it('follow the shell for signals: 128 + the signal number', () => {
    expect(exitCodeOf(new Interrupted('SIGINT'))).toBe(130);
    expect(exitCodeOf(new Interrupted('SIGTERM'))).toBe(143);
  });
});

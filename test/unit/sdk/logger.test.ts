import { describe, expect, it } from 'vitest';
import { jsonLineLogger } from '../../../sdk/typescript/src/logger.ts';

describe('the default logger', () => {
  it('writes one JSON line per entry', () => {
    const lines: string[] = [];
    const logger = jsonLineLogger((line) => lines.push(line));

    logger.warn('lease lost; the task is dropped', { task_id: 'tsk_1' });

    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('\n')).toBe(true);
    expect(JSON.parse(lines[0])).toEqual({ time: expect.any(String), level: 'warn', message: 'lease lost; the task is dropped', task_id: 'tsk_1' });
  });
});

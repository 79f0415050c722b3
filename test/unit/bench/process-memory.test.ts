import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { descendantRss, descendants, statusBytes } from '../../../bench/accessibility/process-memory';

describe('process memory from /proc', () => {
  it('reads a status field in bytes', () => {
    const status = 'Name:\tchromium\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t12\n';

    expect(statusBytes(status, 'VmRSS')).toBe(100 * 1024 * 1024);
    expect(statusBytes(status, 'VmHWM')).toBe(200 * 1024 * 1024);
    expect(statusBytes('Name:\tkthreadd\n', 'VmRSS')).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')('finds a child process and sums its resident memory', async () => {
    const child = spawn('/bin/sleep', ['5']);
    await once(child, 'spawn');
    try {
      expect(descendants(process.pid)).toContain(child.pid);
      const rss = descendantRss('/bin/sleep');
      expect(rss.processes).toBeGreaterThanOrEqual(1);
      expect(rss.bytes).toBeGreaterThan(0);
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });
});

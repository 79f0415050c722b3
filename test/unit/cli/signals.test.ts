import { describe, expect, it } from 'vitest';
import { spawnCli } from '../../support/cli-process';
import { API_KEY, PROJECT } from './fake-api.ts';
import { useFakeApi } from './harness.ts';

const api = useFakeApi();

/** The real process, against the fake API, on a scan that never ends. */
async function scanning() {
  api.fake.plan = { findings: [], outcome: 'never', runningReads: 0 };
  const cli = spawnCli(['scan', '--project', PROJECT], { GATEHOUSE_API_URL: api.fake.baseUrl, GATEHOUSE_API_KEY: API_KEY }, 20_000);
  await cli.stderrMatches(/\] pending$/m, 10_000);
  return cli;
}

describe('the CLI process on a signal', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('cancels the scan on %s and exits %i', async (signal, exitCode) => {
    const cli = await scanning();

    process.kill(cli.pid, signal);

    expect(await cli.exited).toEqual({ code: exitCode, signal: null });
    const [scan] = api.fake.created();
    expect(scan.status).toBe('cancelled');
    expect(cli.stderr()).toContain(`Cancelling scan ${scan.scan_id} (${signal})`);
    expect(cli.stderr()).toContain(`gatehouse: Stopped by ${signal}.`);
  });

  it('exits at once on a second signal, while the cancel still hangs', async () => {
    api.fake.script('cancel', { hang: true }, { hang: true });
    const cli = await scanning();

    process.kill(cli.pid, 'SIGINT');
    await cli.stderrMatches(/Cancelling scan/, 5_000);
    const second = Date.now();
    process.kill(cli.pid, 'SIGINT');

    expect(await cli.exited).toEqual({ code: 130, signal: null });
    expect(Date.now() - second).toBeLessThan(2_000);
  });
});

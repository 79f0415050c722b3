import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand, parseMetadata } from '../../../sdk/cli/src/args.ts';
import { UsageError } from '../../../sdk/cli/src/errors.ts';

const scan = (...args: string[]) => {
  const command = parseCommand(['scan', ...args]);
  if (command.name !== 'scan') throw new Error(`expected scan, got ${command.name}`);
  return command.options;
};

const usageError = (argv: string[]) => {
  try {
    parseCommand(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`${argv.join(' ')} parsed`);
};

describe('the command line', () => {
  it('has defaults for everything but the project', () => {
    expect(scan('--project', 'prj_1')).toEqual({ project: 'prj_1', failOn: 'high', sarif: undefined, newOnly: false, branch: undefined, baselineBranch: undefined, detectors: undefined, environment: undefined, metadata: {}, timeoutSeconds: 900, json: false });
  });

  it('reads every flag', () => {
    const options = scan('--project=prj_1', '--fail-on', 'MEDIUM', '--sarif', 'out/g.sarif', '--new-only', '--branch', 'feature/x', '--baseline-branch', ' main ', '--detectors', 'security, accessibility,security', '--environment', 'staging', '--metadata', 'team=web', '--metadata', 'url=https://a.example/?q=1', '--timeout', '60', '--json');

    expect(options).toEqual({
      project: 'prj_1',
      failOn: 'medium',
      sarif: 'out/g.sarif',
      newOnly: true,
      branch: 'feature/x',
      baselineBranch: 'main',
      detectors: ['security', 'accessibility'],
      environment: 'staging',
      metadata: { team: 'web', url: 'https://a.example/?q=1' },
      timeoutSeconds: 60,
      json: true,
    });
  });

  it('answers --help, scan --help and --version', () => {
    expect(parseCommand(['--help'])).toMatchObject({ name: 'help', text: expect.stringContaining('Exit codes:') });
    expect(parseCommand(['-h'])).toMatchObject({ name: 'help' });
    expect(parseCommand(['scan', '--project', 'p', '--help'])).toMatchObject({ name: 'help', text: expect.stringContaining('--fail-on <severity>') });
    expect(parseCommand(['scan', '--help'])).toMatchObject({ name: 'help', text: expect.stringMatching(/--baseline-branch <name>[\s\S]*GITHUB_BASE_REF[\s\S]*CI_MERGE_REQUEST_TARGET_BRANCH_NAME/) });
    expect(parseCommand(['--version'])).toEqual({ name: 'version' });
  });

  it('documents the exit codes in both helps', () => {
    for (const argv of [['--help'], ['scan', '--help']]) {
      const command = parseCommand(argv);
      const text = command.name === 'help' ? command.text : '';
      for (const line of [/^ {2}0 {2}passed/m, /^ {2}1 {2}failed/m, /^ {2}2 {2}usage/m, /^ {2}3 {2}no verdict/m]) expect(text).toMatch(line);
    }
  });

  it.each([
    [[], 'No command given.'],
    [['report'], "Unknown command 'report'."],
    [['scan'], '--project <id> is required.'],
    [['scan', '--project', ' '], '--project <id> is required.'],
    [['scan', '--project', 'p', '--bogus'], "Unknown option '--bogus'"],
    [['scan', '--project', 'p', 'extra'], "Unexpected argument 'extra'"],
    [['scan', '--project'], "Option '--project <value>' argument missing"],
    [['scan', '--project', 'p', '--fail-on', 'severe'], "--fail-on must be one of critical, high, medium, low, info, none; got 'severe'."],
    [['scan', '--project', 'p', '--timeout', '0'], "--timeout must be a whole number of seconds, 1 or more; got '0'."],
    [['scan', '--project', 'p', '--timeout', '1.5'], "--timeout must be a whole number of seconds, 1 or more; got '1.5'."],
    [['scan', '--project', 'p', '--detectors', 'security,seo'], '--detectors takes a comma-separated list of accessibility, security, ai_readiness; unknown: seo.'],
    [['scan', '--project', 'p', '--detectors', ','], '--detectors takes a comma-separated list of accessibility, security, ai_readiness.'],
    [['scan', '--project', 'p', '--environment', 'x'.repeat(65)], '--environment must be 1 to 64 characters.'],
    [['scan', '--project', 'p', '--metadata', 'novalue'], "--metadata takes key=value; got 'novalue'."],
    [['scan', '--project', 'p', '--metadata', '=v'], "--metadata takes key=value; got '=v'."],
    [['scan', '--project', 'p', '--metadata', 'branch=main'], 'Set the branch with --branch, not --metadata.'],
    [['scan', '--project', 'p', '--metadata', 'baseline_branch=main'], 'Set the baseline branch with --baseline-branch, not --metadata.'],
    [['scan', '--project', 'p', '--branch', ' '], '--branch must be 1 to 1024 characters.'],
    [['scan', '--project', 'p', '--baseline-branch', ''], '--baseline-branch must be 1 to 1024 characters.'],
    [['scan', '--project', 'p', '--baseline-branch', 'b'.repeat(1025)], '--baseline-branch must be 1 to 1024 characters.'],
    [['scan', '--project', 'p', '--sarif', ''], '--sarif needs a file name.'],
    [['scan', '--project', 'p', '--new-only=yes'], "Option '--new-only' does not take an argument"],
  ])('refuses %j: %s', (argv, message) => {
    expect(usageError(argv)).toContain(message);
  });

  it('refuses the key as a flag, without repeating it', () => {
    for (const flag of [['--api-key', 'gh_live_secret'], ['--api-key=gh_live_secret'], ['--token', 'gh_live_secret']]) {
      const message = usageError(['scan', '--project', 'p', ...flag]);

      expect(message).toContain('GATEHOUSE_API_KEY');
      expect(message).not.toContain('gh_live_secret');
    }
  });

  it('reads any key=value pair back, whatever the value holds', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_][a-z0-9_]{0,20}$/).filter((key) => key !== 'branch' && key !== 'baseline_branch'), fc.string({ maxLength: 200 }), (key, value) => {
        expect(parseMetadata([`${key}=${value}`])).toEqual({ [key]: value });
      }),
    );
  });
});

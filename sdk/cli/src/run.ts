import { parseCommand } from './args.ts';
import { ciContext } from './ci-context.ts';
import { connectionFrom } from './connection.ts';
import { exitCodeOf } from './exit-codes.ts';
import { errorText } from './output.ts';
import { DEFAULT_TIMING, runScan, type Timing } from './scan-command.ts';
import { VERSION } from './version.ts';

export interface RunContext {
  env: Record<string, string | undefined>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Aborted with an Interrupted when SIGINT or SIGTERM arrives. */
  signal?: AbortSignal;
  /** Shorter waits for tests. */
  timing?: Partial<Timing>;
}

/** The whole command line: resolves with the exit code, and never rejects. */
export async function run(argv: string[], context: RunContext): Promise<number> {
  try {
    const command = parseCommand(argv);
    if (command.name === 'help') {
      context.stdout(command.text);
      return 0;
    }
    if (command.name === 'version') {
      context.stdout(`${VERSION}\n`);
      return 0;
    }
    return await runScan(command.options, {
      connection: connectionFrom(context.env),
      ci: ciContext(context.env),
      stdout: context.stdout,
      stderr: context.stderr,
      signal: context.signal,
      timing: { ...DEFAULT_TIMING, ...context.timing },
      userAgent: `gatehouse-cli/${VERSION} node/${process.versions.node}`,
    });
  } catch (error) {
    context.stderr(errorText(error));
    return exitCodeOf(error);
  }
}

import { Interrupted } from './errors.ts';
import { exitCodeOf } from './exit-codes.ts';
import { run } from './run.ts';

// The first SIGINT or SIGTERM cancels the scan and ends the run; a second one exits at once.
const stopping = new AbortController();
const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
  const interrupted = new Interrupted(signal);
  if (stopping.signal.aborted) process.exit(exitCodeOf(interrupted));
  stopping.abort(interrupted);
};
process.on('SIGINT', onSignal).on('SIGTERM', onSignal);

process.exitCode = await run(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: stopping.signal,
});
process.off('SIGINT', onSignal).off('SIGTERM', onSignal);

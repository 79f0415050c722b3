import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort, waitForPort } from '#lib/local/free-port';

export interface DynamoDbLocal {
  endpoint: string;
  pid: number;
  stop(): Promise<void>;
}

/** The DynamoDB Local jar that the npm package `amplify-dynamodb-simulator` ships. */
function emulatorDirectory(): string {
  const require = createRequire(import.meta.url);
  const directory = join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  if (!existsSync(join(directory, 'DynamoDBLocal.jar'))) throw new Error(`DynamoDB Local is missing from ${directory}; run npm install.`);
  return directory;
}

/**
 * Starts AWS's DynamoDB Local on a free loopback port, keeping data in `dataDir` (or in memory).
 * Java 17 must be on the PATH.
 */
export async function startDynamoDbLocal(options: { dataDir?: string }): Promise<DynamoDbLocal> {
  const directory = emulatorDirectory();
  const port = await freePort();
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child: ChildProcess = spawn(
    'java',
    [`-Djava.library.path=${join(directory, 'DynamoDBLocal_lib')}`, '-Xmx512m', '-jar', join(directory, 'DynamoDBLocal.jar'), '-port', String(port), '-sharedDb', '-disableTelemetry', ...storage],
    { cwd: directory, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failedToStart = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`Could not start Java for DynamoDB Local (is Java 17 installed?): ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`DynamoDB Local exited with code ${code}: ${stderr}`)));
  });
  failedToStart.catch(() => undefined);
  await Promise.race([waitForPort(port, 30_000), failedToStart]);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/**
 * Stops a DynamoDB Local left running by a runtime that was killed (its Java child outlives it).
 * SIGTERM lets it flush what it acknowledged before a new one opens the same data files.
 */
export async function stopOrphanedDynamoDbLocal(pid: number): Promise<void> {
  const isDynamoDbLocal = () => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal.jar');
    } catch {
      return false;
    }
  };
  if (!isDynamoDbLocal()) return;
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 10_000 && isDynamoDbLocal(); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  if (isDynamoDbLocal()) process.kill(pid, 'SIGKILL');
}

import { startEngines, type Engines } from '#lib/local/engines';
import { startRuntime, type Runtime } from '#lib/local/runtime';
import { generateApiKey } from '#shared/domain/api-key';

export interface BenchRuntime extends Runtime {
  /** The bench tenant's API key. */
  key: string;
  tenantId: string;
}

export interface BenchRuntimeOptions {
  engines: Engines;
  /** Table and queue names; reuse it to restart a runtime over the same data. */
  name: string;
  workers: boolean;
  /** The table stream's fan-out (default on); off where only the API is measured. */
  eventFanOut?: boolean;
  workerConcurrency: number;
  tenant?: { tenantId: string; key: string };
}

/** Starts the bench engines (DynamoDB Local and fauxqs, in memory) once per phase process. */
export function startBenchEngines(): Promise<Engines> {
  return startEngines();
}

/** The whole local runtime, in this process, on a free port, with one bench tenant. */
export async function startBenchRuntime(options: BenchRuntimeOptions): Promise<BenchRuntime> {
  const tenant = options.tenant ?? { tenantId: 'bench', key: generateApiKey() };
  const runtime = await startRuntime({
    port: 0,
    dataDir: '',
    inMemory: true,
    engines: options.engines,
    name: options.name,
    apiKeys: [tenant],
    workers: options.workers,
    eventFanOut: options.eventFanOut,
    workerConcurrency: options.workerConcurrency,
    smtpPort: 0,
    log: () => undefined,
  });
  return { ...runtime, ...tenant };
}

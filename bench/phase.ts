import { writeFileSync } from 'node:fs';
import { benchConfig, PHASES, type Phase } from './config';
import { benchRuntimeEnvironment } from './runtime-environment';

/**
 * One phase of the benchmark in its own process: `node --import tsx bench/phase.ts <phase> <out.json>`.
 * A process per phase gives each its own engines, module state and environment (the runtime
 * writes its endpoints into process.env), and lets the metering phases log at INFO while the
 * load phases log at WARN. The environment is set before any handler module loads.
 */
const [phase, outFile] = process.argv.slice(2) as [Phase, string];
if (!(PHASES as readonly string[]).includes(phase) || !outFile) throw new Error(`usage: phase.ts <${PHASES.join('|')}> <out.json>`);
const config = benchConfig();
// These phases count the bytes a deployed stack would log, so they log at the deployed level (a
// handler's level is the one at load: Powertools sets it back at every invocation).
const METERED_AS_DEPLOYED: readonly Phase[] = ['metering', 'workers'];
Object.assign(process.env, benchRuntimeEnvironment(METERED_AS_DEPLOYED.includes(phase) ? { POWERTOOLS_LOG_LEVEL: 'INFO' } : {}));
const module = (await import(`./phases/${phase}.ts`)) as { run(config: ReturnType<typeof benchConfig>): Promise<unknown> };
writeFileSync(outFile, JSON.stringify(await module.run(config)));
// Sockets of clients that outlive their runtime (keep-alive) must not hold the phase open.
process.exit(0);

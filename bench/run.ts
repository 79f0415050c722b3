import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchConfig, type Phase } from './config';
import { gitCommit, machineInfo } from './machine';
import { progress } from './progress';
import { consoleSummary, renderResults, updateDocument } from './report';
import { carriedOverRuns, type BenchResults, type CarriedOver } from './results';

/**
 * `npm run bench`: runs each phase in its own process (bench/phase.ts), collects their figures
 * into bench/results.json, rewrites the generated section of docs/benchmarks.md, and prints every
 * figure beside its target. It asserts nothing: a target not met is a finding, not a failure.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_FILE = join(root, 'bench/results.json');
const DOCUMENT = join(root, 'docs/benchmarks.md');

const RESULT_KEY: Record<Phase, 'bundles' | 'routes' | 'metering' | 'endToEnd' | 'dashboard' | 'triggers' | 'integrations' | 'workers' | 'accessibility' | 'schemas'> = { bundles: 'bundles', routes: 'routes', metering: 'metering', 'end-to-end': 'endToEnd', dashboard: 'dashboard', triggers: 'triggers', integrations: 'integrations', workers: 'workers', accessibility: 'accessibility', schemas: 'schemas' };

/** Runs one phase; its stdout (handler logs) is discarded, its stderr (progress, warnings) shown. */
function runPhase(phase: Phase, outFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/phase.ts'), phase, outFile], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`phase ${phase} exited with ${signal ?? `code ${code}`}`))));
  });
}

const config = benchConfig();
const results: BenchResults = { generatedAt: new Date().toISOString(), commit: gitCommit(), machine: machineInfo(), config };
const scratch = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
const failed: string[] = [];
try {
  for (const phase of config.phases) {
    const started = Date.now();
    progress(`phase ${phase}: starting`);
    const outFile = join(scratch, `${phase}.json`);
    try {
      await runPhase(phase, outFile);
      (results as unknown as Record<string, unknown>)[RESULT_KEY[phase]] = JSON.parse(readFileSync(outFile, 'utf8'));
      progress(`phase ${phase}: done in ${Math.round((Date.now() - started) / 1000)} s`);
    } catch (error) {
      failed.push(phase);
      progress(`phase ${phase} FAILED: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

carryOverPhasesNotRun(results);
writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
const document = existsSync(DOCUMENT) ? readFileSync(DOCUMENT, 'utf8') : '# Benchmarks\n';
writeFileSync(DOCUMENT, updateDocument(document, renderResults(results)));
console.log('');
for (const line of consoleSummary(results)) console.log(line);
console.log(`\nWrote ${RESULTS_FILE} and the results section of ${DOCUMENT}.`);
/**
 * A run of some phases (BENCH_PHASES) keeps the other phases' figures of the last run, saying
 * which run they come from, so docs/benchmarks.md never loses a section to a partial run.
 */
function carryOverPhasesNotRun(current: BenchResults): void {
  if (!existsSync(RESULTS_FILE)) return;
  const previous = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as BenchResults;
  const carried = (Object.keys(RESULT_KEY) as Phase[]).filter((phase) => !config.phases.includes(phase) && previous[RESULT_KEY[phase]] !== undefined);
  if (carried.length === 0) return;
  for (const phase of carried) (current as unknown as Record<string, unknown>)[RESULT_KEY[phase]] = previous[RESULT_KEY[phase]];
  // Each phase keeps the run that measured it: the previous run, or the run the previous one kept it from.
  const earlier = carriedOverRuns(previous);
  const runs = new Map<string, CarriedOver>();
  for (const phase of carried) {
    const source = earlier.find((run) => run.phases.includes(phase)) ?? { commit: previous.commit, generatedAt: previous.generatedAt };
    const key = `${source.generatedAt} ${source.commit}`;
    const run = runs.get(key) ?? { commit: source.commit, generatedAt: source.generatedAt, phases: [] };
    run.phases.push(phase);
    runs.set(key, run);
  }
  current.carriedOver = [...runs.values()].sort((a, b) => a.generatedAt.localeCompare(b.generatedAt));
}

if (failed.length > 0) {
  console.log(`Phases that failed (their figures are missing): ${failed.join(', ')}.`);
  process.exitCode = 1;
}

import { describe, expect, it } from 'vitest';
import { benchConfig } from '../../../bench/config';
import { costOf, type UnitUsage } from '../../../bench/cost';
import { BEGIN_MARKER, END_MARKER, consoleSummary, renderResults, updateDocument } from '../../../bench/report';
import type { BenchResults } from '../../../bench/results';
import { checkTargets } from '../../../bench/targets';

const load = (rps: number) => ({ concurrency: 1, seconds: 3, rps, errors: 0, errorSamples: [], count: rps * 3, p50: 2, p99: 9, max: 12 });
const usage: UnitUsage = { apiRequests: 1, invocations: 2, gbSeconds: 0.05, readUnits: 3, writeUnits: 2, sqsRequests: 1, schedulerInvocations: 0, logBytes: 512, byFunction: [], authorizerInvocations: 1 };

function results(): BenchResults {
  return {
    generatedAt: '2026-11-22T00:00:00.000Z',
    commit: 'abc123',
    machine: { node: 'v22.0.0', platform: 'linux', arch: 'arm64', cpus: 2, cpuModel: 'Test CPU', memoryGb: 8, loadAverage: [0.5, 0.4, 0.3] },
    config: benchConfig({ BENCH_QUICK: '1' }),
    routes: [
      { route: 'GET /tasks/{task_id}', runs: [{ concurrency: 1, api: load(600), floor: load(1000) }] },
      { route: 'GET /tasks', runs: [{ concurrency: 1, api: load(300), floor: load(1000) }] },
    ],
    metering: [{ name: 'ai_readiness.full_audit', kind: 'task', units: 5, errors: 0, usage, cost: costOf(usage), raw: { schedulesCreated: 0, schedulesDeleted: 0, emptyReceives: 0, transactions: 3, transactionUnitsPriced: 12, transactionUnitsReportedLocally: 12, localOnlyReadUnits: 0, localOnlyWriteUnits: 0 } }],
    bundles: {
      node: 'v22.23.3',
      floor: { bytes: 300_000, lazyBytes: 100_000, initMs: 100 },
      functions: [
        { handler: 'functions/tasks/get-task.ts', label: 'GET /tasks/{task_id}', kind: 'api', bytes: 900_000, lazyBytes: 200_000, initMs: 140, heavy: [{ name: '@aws-sdk/client-sqs', bytes: 60_000, lazy: false }], unneeded: ['@aws-sdk/client-sqs'] },
        { handler: 'functions/tasks/list-tasks.ts', label: 'GET /tasks', kind: 'api', bytes: 800_000, lazyBytes: 100_000, initMs: 160, heavy: [{ name: 'csv-stringify', bytes: 51_200, lazy: true }], unneeded: [] },
      ],
    },
    endToEnd: [{ producers: 1, seconds: 10, tasksCreated: 4, tasksCompleted: 4, errors: 0, errorSamples: [], createToComplete: { count: 4, p50: 300, p99: 500, max: 500 }, sse: { count: 20, p50: 1200, p99: 1600, max: 1700 }, webhook: { count: 20, p50: 100, p99: 200, max: 210 } }],
  };
}

describe('bench report', () => {
  it('judges each target against the run', () => {
    const checks = checkTargets(results());
    const met = (start: string) => checks.find((check) => check.target.startsWith(start))!.met;

    expect(met('GET /tasks/{task_id} at 1')).toBe(true);
    expect(met('GET /tasks at 1')).toBe(false);
    expect(met('ai_readiness.full_audit all-in < $8 per million (REST API)')).toBe(true);
    expect(met("every API handler's init")).toBe(false);
    expect(met('no function bundles')).toBe(false);
    expect(met('end to end, 1 producer')).toBe(true);
  });

  it('renders every section between the markers, with the arithmetic and the marks', () => {
    const markdown = renderResults(results());

    expect(markdown.startsWith(BEGIN_MARKER)).toBe(true);
    expect(markdown.endsWith(END_MARKER)).toBe(true);
    for (const heading of ['### Targets', '### Routes', '### Cost per task type', '### Lambda bundles', '### End to end']) expect(markdown).toContain(heading);
    expect(markdown).toContain('fresh `node` processes, Node v22.23.3)');
    expect(markdown).toContain('| GET /tasks/{task_id} | 1 | 600 | 2.0 / 9.0 | 0 | 1000 | 2.0 / 9.0 | 0.60 | ✅ met |');
    expect(markdown).toContain('| GET /tasks | 1 | 300 | 2.0 / 9.0 | 0 | 1000 | 2.0 / 9.0 | 0.30 | ❌ not met |');
    expect(markdown).toContain('| GET /tasks | `functions/tasks/list-tasks.ts` | api | 781 | 98 | 160.0 | 1.60 | csv-stringify (50 KB, lazy) | – | ❌ not met |');
    expect(markdown).toContain('293 KB loaded at init (98 KB in lazy chunks), init 100.0 ms');
    expect(markdown).toContain('| DynamoDB write request units | 2.000 | $6.250e-7 per DynamoDB on-demand write request unit | $1.25 |');
    expect(markdown).toContain('**quick run**');
  });

  it('replaces only the generated section of the document, or appends it', () => {
    const rendered = renderResults(results());
    const document = `# Benchmarks\n\nHand-written.\n\n${BEGIN_MARKER}\nold figures\n${END_MARKER}\n\n## After\n`;

    const updated = updateDocument(document, rendered);

    expect(updated).toContain('Hand-written.');
    expect(updated).toContain('## After');
    expect(updated).not.toContain('old figures');
    expect(updateDocument(updated, rendered)).toBe(updated);
    expect(updateDocument('# Benchmarks\n', rendered)).toBe(`# Benchmarks\n\n${rendered}\n`);
  });

  it('prints each target with met or NOT MET beside its figure', () => {
    const lines = consoleSummary(results());

    expect(lines).toContain('NOT MET  GET /tasks at 1 client(s): API ≥ 0.5 × floor req/s: 300 / 1000 = 0.30');
    expect(lines.some((line) => line.startsWith('cost     ai_readiness.full_audit'))).toBe(true);
  });
});

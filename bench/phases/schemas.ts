import { ownPeakRssBytes, ownRssBytes, resetOwnPeakRss } from '../accessibility/process-memory';
import { apiClient } from '../api-client';
import { startBenchEngines, startBenchRuntime } from '../bench-runtime';
import type { BenchConfig } from '../config';
import { progress } from '../progress';
import type { SchemasReport } from '../results';
import { summarize } from '../stats';

/** The custom agent: one task type whose input schema has this many fields. */
export const SCHEMA_FIELDS = 400;

const MIB = 1024 * 1024;

/** A 400-field input schema with what real ones hold: lengths, patterns, formats, required fields. */
export function wideInputSchema(fields = SCHEMA_FIELDS): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let index = 0; index < fields; index++) {
    const name = `field_${String(index).padStart(3, '0')}`;
    properties[name] =
      index % 4 === 0 ? { type: 'string', pattern: '^[A-Z]{2}-\\d{4,8}$' } : index % 4 === 1 ? { type: 'string', format: 'email' } : index % 4 === 2 ? { type: 'integer', minimum: 0 } : { type: 'string', maxLength: 64 };
  }
  return { type: 'object', additionalProperties: false, required: Object.keys(properties).slice(0, 20), properties };
}

/** Input that satisfies `wideInputSchema`. */
export function wideInput(fields = SCHEMA_FIELDS, seed = 0): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (let index = 0; index < fields; index++) {
    const name = `field_${String(index).padStart(3, '0')}`;
    input[name] = index % 4 === 0 ? `AB-${1000 + seed}` : index % 4 === 1 ? `person${seed}@example.com` : index % 4 === 2 ? seed : `value ${seed}`;
  }
  return input;
}

/**
 * Custom agents' input schemas (issue 25): a custom agent with a 400-field schema, then
 * `schemaTasks` POST /tasks one after another, each timed. The runtime shares this process, so
 * its RSS before and after the creations is what the compiled schemas cost; with no task workers
 * the tasks stay queued. Before the fix, every creation compiled the schema again into one
 * process-wide Ajv that never let go of it.
 */
export async function run(config: BenchConfig): Promise<SchemasReport> {
  const engines = await startBenchEngines();
  const runtime = await startBenchRuntime({ engines, name: 'bench-schemas', workers: false, eventFanOut: false, workerConcurrency: 1 });
  try {
    const api = apiClient(runtime.baseUrl, runtime.key);
    const manifest = { task_types: [{ task_type: 'record.review', description: 'Reviews a wide record.', input_schema: wideInputSchema(), artifact_types: ['record.review_report'] }] };
    await api.call('POST', '/agents/deploy', { body: { agent_slug: 'wide-records', name: 'Wide records', manifest }, expect: 201 });
    globalThis.gc?.();
    const rssBefore = ownRssBytes();
    resetOwnPeakRss();
    const samples: number[] = [];
    let failed = 0;
    for (let index = 0; index < config.schemaTasks; index++) {
      const started = performance.now();
      const task = await api.call<{ status: string }>('POST', '/tasks', { body: { agent: 'wide-records', task_type: 'record.review', input: wideInput(SCHEMA_FIELDS, index) }, expect: 202 });
      samples.push(performance.now() - started);
      if (task.status === 'failed') failed++;
      if ((index + 1) % 100 === 0) progress(`schemas: ${index + 1} of ${config.schemaTasks} tasks created`);
    }
    const peak = ownPeakRssBytes();
    globalThis.gc?.();
    const rssAfter = ownRssBytes();
    return { fields: SCHEMA_FIELDS, tasks: config.schemaTasks, failedTasks: failed, rssBeforeMib: rssBefore / MIB, rssAfterMib: rssAfter / MIB, peakRssMib: peak / MIB, createTask: summarize(samples) };
  } finally {
    await runtime.stop();
    await engines.stop();
  }
}

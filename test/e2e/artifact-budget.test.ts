import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { workerTaskRepository } from '#shared/adapters/dynamodb/worker-task-repository';
import { artifactBytes, type Artifact } from '#shared/domain/artifact';
import { systemClock } from '#shared/domain/clock';
import { taskEvent } from '#shared/domain/events';
import { newId } from '#shared/domain/ids';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { deployCustomAgent } from '../support/custom-agent';

/**
 * Issue 25, finding 8: a worker emitted 2,345 artifacts into one task, and the task record (which
 * lists them) grew toward DynamoDB's 400 KB item limit. A task now holds at most 100 artifacts and
 * a byte budget of their data (64 KiB here, through its variable; 8 MiB by default).
 */
let runtime: TestRuntime;
let admin: ReturnType<typeof apiClient>;
let worker: ReturnType<typeof apiClient>;

const BYTE_BUDGET = 64 * 1024;

async function claimedTask(): Promise<{ taskId: string; lease: string }> {
  const created = await admin('POST', '/tasks', { agent: 'invoice-checker', task_type: 'invoice.check', input: { invoice_number: 'INV-1', amount: 10 } });
  expect(created.status).toBe(202);
  for (let round = 0; round < 20; round++) {
    const claimed = await worker('POST', '/agents/invoice-checker/claims', { wait_seconds: 0, lease_seconds: 300 });
    if (claimed.status === 200 && claimed.body.task.task_id === created.body.task_id) return { taskId: created.body.task_id, lease: claimed.body.lease_id };
    if (claimed.status === 200) await worker('POST', `/tasks/${claimed.body.task.task_id}/fail`, { lease_id: claimed.body.lease_id, error: { code: 'drained', message: 'not this test’s task' } });
  }
  throw new Error('the task was never claimed');
}

const emit = (taskId: string, lease: string, data: Record<string, unknown>) => worker('POST', `/tasks/${taskId}/artifacts`, { lease_id: lease, type: 'invoice.check_report', data });

describe('the artifact budget of a task, through the worker API', () => {
  beforeAll(async () => {
    process.env.GATEHOUSE_MAX_ARTIFACT_BYTES_PER_TASK = String(BYTE_BUDGET);
    runtime = await startTestRuntime('artifact-budget');
    ({ admin, worker } = await deployCustomAgent(runtime.baseUrl, runtime.keys.a));
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('accepts 100 artifacts into one task, then answers 409 artifact_limit_reached and writes nothing', async () => {
    const { taskId, lease } = await claimedTask();
    for (let index = 0; index < 100; index++) expect((await emit(taskId, lease, { invoice_number: `INV-${index}`, matches_order: true })).status).toBe(201);

    const past = await Promise.all([0, 1, 2].map((index) => emit(taskId, lease, { invoice_number: `INV-over-${index}` })));

    for (const answer of past) {
      expect(answer.status).toBe(409);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      expect(answer.body.code).toBe('artifact_limit_reached');
    }
    const task = (await admin('GET', `/tasks/${taskId}`)).body;
    expect(task.artifacts).toHaveLength(100);
    expect((await admin('GET', `/tasks/${taskId}/artifacts`)).body.artifacts).toHaveLength(100);

    // A deleted artifact frees its place; the task completes with what it holds.
    expect((await admin('DELETE', `/artifacts/${task.artifacts[0].artifact_id}`)).status).toBe(204);
    expect((await emit(taskId, lease, { invoice_number: 'INV-late' })).status).toBe(201);
    expect((await emit(taskId, lease, { invoice_number: 'INV-later' })).body.code).toBe('artifact_limit_reached');
    expect((await worker('POST', `/tasks/${taskId}/complete`, { lease_id: lease })).status).toBe(200);
  }, 120_000);

  it('answers 413 artifact_too_large past the byte budget, and gives bytes back when an artifact is deleted', async () => {
    const { taskId, lease } = await claimedTask();
    const quarter = { notes: 'x'.repeat(BYTE_BUDGET / 4 - 20) };
    const emitted = [];
    for (let index = 0; index < 4; index++) {
      const answer = await emit(taskId, lease, quarter);
      expect(answer.status).toBe(201);
      emitted.push(answer.body.artifact_id);
    }

    const over = await emit(taskId, lease, quarter);

    expect(over.status).toBe(413);
    expect(over.headers.get('content-type')).toBe('application/problem+json');
    expect(over.body).toMatchObject({ code: 'artifact_too_large', status: 413 });
    expect((await admin('GET', `/tasks/${taskId}`)).body.artifacts).toHaveLength(4);
    expect((await emit(taskId, lease, { small: true })).status).toBe(201);
    expect((await admin('DELETE', `/artifacts/${emitted[0]}`)).status).toBe(204);
    expect((await emit(taskId, lease, quarter)).status).toBe(201);
  });

  it('is held by the write itself: an emit judged from a stale read cannot pass the budget', async () => {
    const { taskId, lease } = await claimedTask();
    expect((await emit(taskId, lease, { invoice_number: 'INV-1' })).status).toBe(201);
    const tenantId = (await admin('GET', `/tasks/${taskId}`)).body.tenant_id;
    const task = (await taskRepository.load(tenantId, taskId))!;
    const data = { invoice_number: 'INV-raced' };
    const artifact: Artifact = { artifact_id: newId('art'), tenant_id: tenantId, task_id: taskId, agent: task.agent, type: 'invoice.check_report', created_at: new Date().toISOString(), data, data_bytes: artifactBytes(data) };
    const event = taskEvent('artifact.emitted', task, { artifact_id: artifact.artifact_id, type: artifact.type }, systemClock);

    // The task as read has one artifact; a budget of one (or of the bytes it holds) must refuse the write.
    const pastCount = await workerTaskRepository.emitArtifact(task, { leaseId: lease }, task.step + 1, artifact, event, { maxCount: 1, maxBytes: BYTE_BUDGET });
    const pastBytes = await workerTaskRepository.emitArtifact(task, { leaseId: lease }, task.step + 1, artifact, event, { maxCount: 100, maxBytes: (task.artifact_bytes ?? 0) + artifact.data_bytes! - 1 });

    expect([pastCount, pastBytes]).toEqual([false, false]);
    expect((await admin('GET', `/tasks/${taskId}`)).body.artifacts).toHaveLength(1);
    expect((await admin('GET', `/artifacts/${artifact.artifact_id}`)).status).toBe(404);
    expect(await workerTaskRepository.emitArtifact(task, { leaseId: lease }, task.step + 1, artifact, event, { maxCount: 2, maxBytes: BYTE_BUDGET })).toBe(true);
  });
});

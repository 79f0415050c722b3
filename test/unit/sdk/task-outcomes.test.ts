import { describe, expect, it, vi } from 'vitest';
import { TaskFailure } from '../../../sdk/typescript/src/index.ts';
import { useFakeGatehouse } from './harness.ts';

const gatehouse = useFakeGatehouse();

describe('how a handler ends its task', () => {
  it('fails the task with the code of a TaskFailure', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');

    await gatehouse.startWorker({
      'invoice.check': async () => {
        throw new TaskFailure('denied', 'The report was not sent.');
      },
    });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('failed'));
    expect(gatehouse.fake.task(taskId).error).toEqual({ code: 'denied', message: 'The report was not sent.' });
    expect(gatehouse.fake.sent('complete')).toEqual([]);
  });

  it('fails the task with agent_error for any other error, and logs its stack', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');

    const { logs } = await gatehouse.startWorker({
      'invoice.check': () => {
        throw new Error('the parser choked');
      },
    });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('failed'));
    expect(gatehouse.fake.task(taskId).error).toEqual({ code: 'agent_error', message: 'the parser choked' });
    await vi.waitFor(() => expect(logs.find((line) => line.message === 'task failed')).toMatchObject({ error: { code: 'agent_error', message: 'the parser choked' }, stack: expect.stringContaining('the parser choked') }));
  });

  it('fails a task of a type it has no handler for with no_handler, sending nothing else', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.archive');
    const handler = vi.fn();

    await gatehouse.startWorker({ 'invoice.check': handler });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('failed'));
    expect(gatehouse.fake.task(taskId).error).toEqual({ code: 'no_handler', message: "This worker has no handler for task type 'invoice.archive'." });
    expect(gatehouse.fake.sent(undefined, taskId).map((request) => request.route)).toEqual(['fail']);
    expect(handler).not.toHaveBeenCalled();
  });

  it('refuses a TaskFailure code the server would refuse, where it is written', () => {
    expect(() => new TaskFailure('Not Sent', 'x')).toThrow(TypeError);
    expect(new TaskFailure('not_sent', 'x').code).toBe('not_sent');
  });
});

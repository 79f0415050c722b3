import { describe, expect, it, vi } from 'vitest';
import { ToolCallError } from '../../../sdk/typescript/src/index.ts';
import { useFakeGatehouse } from './harness.ts';

const gatehouse = useFakeGatehouse();

describe('tool calls', () => {
  it('returns the result of a tool call that succeeded', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    gatehouse.fake.tools.set('github.read_file', (args) => ({ outcome: 'succeeded', result: { path: args.path, content: '{"total":42}' } }));
    let result: unknown;

    await gatehouse.startWorker({
      'invoice.check': async (_input, ctx) => {
        result = await ctx.callTool('github.read_file', { path: 'invoices/42.json' });
      },
    });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));
    expect(result).toEqual({ path: 'invoices/42.json', content: '{"total":42}' });
    expect(gatehouse.fake.sent('tool-calls', taskId)[0].body).toEqual({ lease_id: expect.any(String), tool: 'github.read_file', args: { path: 'invoices/42.json' } });
  });

  it('throws a ToolCallError with the code of a tool call that failed', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    gatehouse.fake.tools.set('github.read_file', () => ({ outcome: 'failed', error: { code: 'integration_revoked', message: 'The token was revoked.' } }));
    let error: unknown;

    await gatehouse.startWorker({
      'invoice.check': async (_input, ctx) => {
        error = await ctx.callTool('github.read_file', { path: 'invoices/42.json' }).catch((thrown: unknown) => thrown);
      },
    });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error).toMatchObject({ tool: 'github.read_file', code: 'integration_revoked', toolCallId: expect.stringMatching(/^tc_/) });
  });
});

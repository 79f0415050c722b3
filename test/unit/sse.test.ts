import { describe, expect, it } from 'vitest';
import type { ServiceEvent } from '#shared/domain/event';
import { commentFrame, eventFrame, positionFrame, retryFrame } from '#shared/streaming/sse';

const event: ServiceEvent = { event_id: 'evt_01', type: 'task.progress', created_at: '2026-01-01T00:00:00Z', tenant_id: 't', data: { task_id: 'tsk_1', message: 'line one\nline two', progress: 0.5 } };

describe('SSE framing', () => {
  it('writes id, event and one data line of JSON, then a blank line', () => {
    expect(eventFrame(event)).toBe('id: evt_01\nevent: task.progress\ndata: {"task_id":"tsk_1","message":"line one\\nline two","progress":0.5}\n\n');
  });

  it('keeps comments on one line so they cannot inject fields', () => {
    expect(commentFrame('a\r\nevent: x')).toBe(': a event: x\n\n');
  });

  it('writes retry and checkpoint frames', () => {
    expect(retryFrame(1000)).toBe('retry: 1000\n\n');
    expect(positionFrame('evt_02')).toBe('id: evt_02\nevent: stream.checkpoint\ndata: {}\n\n');
  });
});

import { describe, expect, it } from 'vitest';
import { agentBars, duration, isMonth, niceMax, taskTypeRows, utcMonth } from '../../../web/src/lib/usage';
import { newSigningSecret } from '../../../web/src/lib/secret';

const usage = {
  by_agent: {
    sales: { tasks_created: 3, tasks_completed: 2, task_seconds: 10, by_task_type: { 'sales.draft': { tasks_created: 3, tasks_completed: 2, task_seconds: 10 } } },
    'ai-readiness': {
      tasks_created: 3,
      tasks_completed: 3,
      task_seconds: 95.5,
      by_task_type: { 'ai_readiness.quick': { tasks_created: 1, tasks_completed: 1, task_seconds: 5.5 }, 'ai_readiness.full_audit': { tasks_created: 2, tasks_completed: 2, task_seconds: 90 } },
    },
    idle: { tasks_created: 0, tasks_completed: 0, task_seconds: 0, by_task_type: {} },
  },
};

describe('the Usage tab', () => {
  it('orders agents by tasks created, then by name', () => {
    expect(agentBars(usage).map((bar) => bar.agent)).toEqual(['ai-readiness', 'sales', 'idle']);
    expect(agentBars({ by_agent: {} })).toEqual([]);
  });

  it('lists one row per agent and task type, as the CSV does', () => {
    expect(taskTypeRows(usage).map((row) => `${row.agent}/${row.taskType}`)).toEqual(['ai-readiness/ai_readiness.full_audit', 'ai-readiness/ai_readiness.quick', 'sales/sales.draft']);
  });

  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 10, 11, 240, 501].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 500, 1000]);
  });

  it('says task time in words', () => {
    expect([0, 5.5, 59, 60, 185, 7800].map(duration)).toEqual(['0 s', '5.5 s', '59 s', '1 min', '3 min 5 s', '2 h 10 min']);
  });

  it('knows UTC months', () => {
    expect(utcMonth(new Date('2026-02-01T00:30:00+02:00'))).toBe('2026-01');
    expect(['2026-01', '2026-12'].every(isMonth)).toBe(true);
    expect(['2026-13', '2026-1', '26-01', ''].some(isMonth)).toBe(false);
  });
});

describe("a webhook's signing secret made by the dashboard", () => {
  it('is what the API accepts (16 to 256 printable ASCII without spaces), and fresh each time', () => {
    const secrets = Array.from({ length: 20 }, newSigningSecret);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(secrets).size).toBe(20);
  });
});

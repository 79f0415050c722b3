import { describe, expect, it } from 'vitest';
import { costOf, type UnitUsage } from '../../../bench/cost';
import { fireUsd, idleCloseComparison, IDLE_CLOSE_ASSUMPTIONS } from '../../../bench/idle-close-cost';
import type { MeteredScenario } from '../../../bench/results';
import { triggeredBesidePlain } from '../../../bench/trigger-cost';

const fire = (overrides: Partial<UnitUsage> = {}): UnitUsage => ({
  apiRequests: 0,
  invocations: 1,
  gbSeconds: 0.01,
  readUnits: 2,
  writeUnits: 0,
  sqsRequests: 0,
  schedulerInvocations: 1,
  logBytes: 700,
  byFunction: [],
  authorizerInvocations: 0,
  ...overrides,
});

describe('idle close priced both ways', () => {
  it('prices a fire with its scheduler invocation, and a session as its pushed-forward fires plus the closing one', () => {
    // $1/M scheduler + $0.2/M Lambda + 5% of $5/M traces + GB-s + 2 RRU + logs.
    expect(fireUsd(fire()) * 1e6).toBeCloseTo(1 + 0.2 + 0.25 + 0.01 * 13.3334 + 2 * 0.125 + (700 / 1024 ** 3) * 0.5 * 1e6, 6);
    const comparison = idleCloseComparison({ rescheduled: { usage: fire() }, closed: { usage: fire({ writeUnits: 6 }) } }, { ...IDLE_CLOSE_ASSUMPTIONS, pushesForward: 2 });
    expect(comparison.rows[0].perSchedule).toBeCloseTo(2 * comparison.rescheduledFireUsdPerMillion + comparison.closedFireUsdPerMillion, 6);
  });

  it('makes a sweep cheap per session only where its fixed cost is spread over many sessions, and its reads grow with open sessions', () => {
    const comparison = idleCloseComparison({ rescheduled: { usage: fire() }, closed: { usage: fire({ writeUnits: 6 }) } }, { ...IDLE_CLOSE_ASSUMPTIONS, activityUpdatesPerSession: 0, sessionsPerMonth: [1_000, 1_000_000, 100_000_000] });
    const everyMinute = comparison.rows.map((row) => row.perSweep.find((entry) => entry.everyMinutes === 1)!);
    expect(everyMinute[0].usdPerMillion).toBeGreaterThan(everyMinute[1].usdPerMillion);
    expect(everyMinute[2].sweepUsdPerMonth).toBeGreaterThan(everyMinute[1].sweepUsdPerMonth * 50);
    expect(comparison.rows[0].openSessions).toBeCloseTo((1_000 * (1440 + 30)) / 43_200, 6);
    expect(comparison.rows[0].cheaper).toBe('one-time schedules');
  });
});

describe('a triggered task beside a plain one', () => {
  it('replaces the plain task\'s way in (API request and POST /tasks) with the trigger\'s hop', () => {
    const usage: UnitUsage = { ...fire({ apiRequests: 1, invocations: 3, schedulerInvocations: 0 }), byFunction: [{ label: 'POST /tasks', handler: 'functions/tasks/create-task.ts', memoryMb: 1024, invocations: 1, billedMs: 100, readUnits: 1, writeUnits: 4, sqsRequests: 1, logBytes: 0 }] };
    const plain: MeteredScenario = { name: 'sales.enrich_leads', kind: 'task', units: 1, errors: 0, usage, cost: costOf(usage), raw: { schedulesCreated: 0, schedulesDeleted: 0, emptyReceives: 0, transactions: 0, transactionUnitsPriced: 0, transactionUnitsReportedLocally: 0, localOnlyReadUnits: 0, localOnlyWriteUnits: 0 } };
    const hop = { cost: costOf(fire()) };
    const figures = triggeredBesidePlain('sales.enrich_leads', hop, [plain])!;
    const lambda = 0.2 + 0.25 + 0.1 * 13.3334 + 0.125 + 4 * 0.625 + 0.4 + (350 / 1024 ** 3) * 0.5 * 1e6;
    expect(figures.entryRest).toBeCloseTo(lambda + 3.5, 6);
    expect(figures.entryHttp).toBeCloseTo(lambda + 1, 6);
    expect(figures.triggeredRest).toBeCloseTo(plain.cost.totalRest - figures.entryRest + costOf(fire()).totalHttp, 6);
    expect(triggeredBesidePlain('sales.find_leads', hop, [plain])).toBeUndefined();
  });
});

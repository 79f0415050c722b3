import { describe, expect, it } from 'vitest';
import { AgentFailure } from '#shared/agents/agent';
import { weekStart, type PipelineReport } from '#shared/agents/sales/pipeline-report';
import { runTask } from './run-task';

const report = async (input: unknown) =>
  (await runTask('sales', 'sales.pipeline_report', input)).artifact<PipelineReport>('sales.pipeline_report');

const outreach = [
  { lead_id: 'L1', sent_at: '2025-03-03T09:00:00Z', opened: true, replied: true, meeting_booked: true },
  { lead_id: 'L2', sent_at: '2025-03-05T14:30:00Z', opened: true, replied: false },
  { domain: 'A.example', sent_at: '2025-03-09T23:59:00Z', opened: false, replied: false, stage: 'lost' },
  { lead_id: 'L1', sent_at: '2025-03-10T00:00:00Z', opened: true, replied: true },
  { lead_id: 'L3', sent_at: '2025-04-02T10:00:00Z', opened: true, replied: true },
  { lead_id: 'L4', sent_at: '2025-02-28T12:00:00Z', opened: false, replied: false },
];
const period = { from: '2025-03-01T00:00:00Z', to: '2025-03-31T23:59:59Z' };

describe('sales.pipeline_report', () => {
  it('computes totals, rates, stages and weekly buckets for a hand-checked example', async () => {
    const data = await report({ outreach, period });

    // In period: 4 sent (L4 and L3 fall outside), 3 opened, 2 replied, 1 meeting.
    expect(data).toEqual({
      period,
      totals: { sent: 4, opened: 3, replied: 2, meetings_booked: 1, unique_leads: 3, excluded_outside_period: 2 },
      open_rate: 0.75,
      reply_rate: 0.5,
      conversion_rate: 0.25,
      stages: { contacted: 1, engaged: 1, meeting: 1, proposal: 0, won: 0, lost: 1 },
      weeks: [
        { week_start: '2025-03-03', sent: 3, opened: 2, replied: 1, meetings_booked: 1, open_rate: 0.6667, reply_rate: 0.3333, conversion_rate: 0.3333 },
        { week_start: '2025-03-10', sent: 1, opened: 1, replied: 1, meetings_booked: 0, open_rate: 1, reply_rate: 1, conversion_rate: 0 },
      ],
    });
  });

  it('reports zeros, not NaN, when nothing was sent', async () => {
    const data = await report({ outreach: [] });

    expect(data).toMatchObject({ open_rate: 0, reply_rate: 0, conversion_rate: 0, weeks: [], period: { from: null, to: null } });
    expect(data.totals.sent).toBe(0);
  });

  it('buckets by UTC Monday whatever the offset of sent_at', () => {
    expect(weekStart(Date.parse('2025-03-09T23:59:00-02:00'))).toBe('2025-03-10');
    expect(weekStart(Date.parse('2025-03-09T23:59:00Z'))).toBe('2025-03-03');
    expect(weekStart(Date.parse('2025-01-01T12:00:00Z'))).toBe('2024-12-30');
  });

  it('is deterministic', async () => {
    expect(await report({ outreach })).toEqual(await report({ outreach }));
  });

  it('fails with malformed_input on an inverted period or an unparsable timestamp', async () => {
    await expect(report({ outreach, period: { from: period.to, to: period.from } })).rejects.toMatchObject({
      constructor: AgentFailure,
      code: 'malformed_input',
    });
    await expect(
      report({ outreach: [{ lead_id: 'L1', sent_at: 'not a date', opened: true, replied: false }] }),
    ).rejects.toMatchObject({ code: 'malformed_input', details: [{ path: '/outreach/0/sent_at', message: 'must be a date-time' }] });
  });
});

import { normaliseDomain } from './lead-source';
import { pipelineStages, type PipelineStage } from './pipeline-stages';

export interface OutreachRecord {
  lead_id?: string;
  domain?: string;
  sent_at: string;
  opened: boolean;
  replied: boolean;
  meeting_booked?: boolean;
  stage?: PipelineStage;
}

export interface Period {
  from?: string;
  to?: string;
}

interface Counts {
  sent: number;
  opened: number;
  replied: number;
  meetings_booked: number;
}

interface Rates {
  open_rate: number;
  reply_rate: number;
  conversion_rate: number;
}

/** `data` of a `sales.pipeline_report` artifact. */
export interface PipelineReport extends Rates {
  period: { from: string | null; to: string | null };
  totals: Counts & { unique_leads: number; excluded_outside_period: number };
  stages: Record<PipelineStage, number>;
  weeks: (Counts & Rates & { week_start: string })[];
}

/** Rates are rounded to 4 decimals; with nothing sent every rate is 0, not NaN. */
export function rate(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

/** A record's stage: as given, otherwise derived from its flags. */
export function stageOf(record: OutreachRecord): PipelineStage {
  if (record.stage) return record.stage;
  if (record.meeting_booked) return 'meeting';
  if (record.replied) return 'engaged';
  return 'contacted';
}

/** Monday (UTC) of the ISO week containing `ms`, as `YYYY-MM-DD`. */
export function weekStart(ms: number): string {
  const day = new Date(ms);
  const offset = (day.getUTCDay() + 6) % 7;
  const monday = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - offset);
  return new Date(monday).toISOString().slice(0, 10);
}

function emptyCounts(): Counts {
  return { sent: 0, opened: 0, replied: 0, meetings_booked: 0 };
}

function add(counts: Counts, record: OutreachRecord): void {
  counts.sent += 1;
  if (record.opened) counts.opened += 1;
  if (record.replied) counts.replied += 1;
  if (record.meeting_booked) counts.meetings_booked += 1;
}

function rates(c: Counts): Rates {
  return {
    open_rate: rate(c.opened, c.sent),
    reply_rate: rate(c.replied, c.sent),
    conversion_rate: rate(c.meetings_booked, c.sent),
  };
}

/**
 * Summarises outreach: every record in the period is one sent email; flags are counted as given.
 * The period is inclusive at both ends. Callers validate timestamps (schema `format: date-time`).
 */
export function buildPipelineReport(records: readonly OutreachRecord[], period: Period = {}): PipelineReport {
  const from = period.from === undefined ? -Infinity : Date.parse(period.from);
  const to = period.to === undefined ? Infinity : Date.parse(period.to);
  const totals = emptyCounts();
  const stages = Object.fromEntries(pipelineStages.map((s) => [s, 0])) as Record<PipelineStage, number>;
  const weeks = new Map<string, Counts>();
  const leads = new Set<string>();
  let excluded = 0;
  for (const record of records) {
    const sent = Date.parse(record.sent_at);
    if (sent < from || sent > to) {
      excluded += 1;
      continue;
    }
    add(totals, record);
    stages[stageOf(record)] += 1;
    leads.add(record.lead_id !== undefined ? `id:${record.lead_id}` : `domain:${normaliseDomain(record.domain ?? '')}`);
    const week = weekStart(sent);
    let bucket = weeks.get(week);
    if (!bucket) {
      bucket = emptyCounts();
      weeks.set(week, bucket);
    }
    add(bucket, record);
  }
  return {
    period: { from: period.from ?? null, to: period.to ?? null },
    totals: { ...totals, unique_leads: leads.size, excluded_outside_period: excluded },
    ...rates(totals),
    stages,
    weeks: [...weeks.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([week_start, c]) => ({ week_start, ...c, ...rates(c) })),
  };
}

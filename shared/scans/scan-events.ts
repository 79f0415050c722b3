import type { Clock } from '#shared/domain/clock';
import type { EventType, ServiceEvent } from '#shared/domain/event';
import { eventAbout } from '#shared/domain/events';
import type { SeveritySummary } from '#shared/scans/risk';
import type { Scan } from '#shared/scans/scan';

/**
 * The events of a scan's life (`scan.created`, `scan.started`, `scan.completed`, `scan.failed`,
 * `scan.cancelled`), written in the unit of work of the change they record, so that the event
 * log, the stream and webhooks tell a CI pipeline when a scan ends without polling.
 */
export function scanEvent(type: EventType, scan: Pick<Scan, 'tenant_id' | 'scan_id' | 'project_id'>, data: Record<string, unknown>, clock: Clock): ServiceEvent {
  return eventAbout(type, { tenant_id: scan.tenant_id, scan_id: scan.scan_id }, { scan_id: scan.scan_id, project_id: scan.project_id, ...data }, clock);
}

/** The findings of a scan's detector runs by severity, summed over the runs. */
export function scanSummary(scan: Pick<Scan, 'runs'>): SeveritySummary {
  const total: SeveritySummary = { total: 0, critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const run of Object.values(scan.runs)) {
    if (!run?.summary) continue;
    for (const key of Object.keys(total) as (keyof SeveritySummary)[]) total[key] += run.summary[key] ?? 0;
  }
  return total;
}

import type { BenchResults } from './results';

/** The targets, each checked against this run's figures. */
export const TARGETS = {
  /** The API keeps at least this fraction of its floor's requests/s. */
  routeShareOfFloor: 0.5,
  /** Dollars per million `ai_readiness.full_audit` tasks, all-in. */
  fullAuditUsdPerMillion: 8,
  /** An API handler's module init within this multiple of the bare DynamoDB handler's. */
  initMultipleOfFloor: 1.5,
  endToEndErrors: 0,
  /** The dashboard's first visit downloads at most this much JavaScript, gzipped. */
  dashboardInitialJsGzipKb: 200,
  /** An open task page shows a new event within the stream's poll interval plus this. */
  taskPageEventSlackMs: 200,
  /** A list page shows its content this soon after navigation starts, on loopback. */
  listPageContentMs: 1000,
  /** /health answers within this while the 470 KiB `<script>` mail arrives (issue 25). */
  healthDuringMailMs: 100,
} as const;

export interface TargetCheck {
  target: string;
  figure: string;
  met: boolean;
}

const fmt = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** Every target the run's phases can judge, one line each. */
export function checkTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const route of results.routes ?? []) {
    for (const run of route.runs) {
      const share = run.api.rps / run.floor.rps;
      checks.push({ target: `${route.route} at ${run.concurrency} client(s): API ≥ ${TARGETS.routeShareOfFloor} × floor req/s`, figure: `${fmt(run.api.rps, 0)} / ${fmt(run.floor.rps, 0)} = ${fmt(share)}`, met: share >= TARGETS.routeShareOfFloor && run.api.errors === 0 });
    }
  }
  const audit = results.metering?.find((scenario) => scenario.name === 'ai_readiness.full_audit');
  if (audit) {
    checks.push({ target: `ai_readiness.full_audit all-in < $${TARGETS.fullAuditUsdPerMillion} per million (REST API)`, figure: `$${fmt(audit.cost.totalRest)}`, met: audit.cost.totalRest < TARGETS.fullAuditUsdPerMillion });
    checks.push({ target: `ai_readiness.full_audit all-in < $${TARGETS.fullAuditUsdPerMillion} per million (HTTP API)`, figure: `$${fmt(audit.cost.totalHttp)}`, met: audit.cost.totalHttp < TARGETS.fullAuditUsdPerMillion });
  }
  if (results.bundles) {
    const floor = results.bundles.floor.initMs;
    const api = results.bundles.functions.filter((fn) => fn.kind === 'api');
    const slow = api.filter((fn) => fn.initMs > TARGETS.initMultipleOfFloor * floor);
    const worst = api.reduce((max, fn) => Math.max(max, fn.initMs / floor), 0);
    checks.push({ target: `every API handler's init ≤ ${TARGETS.initMultipleOfFloor} × floor (${fmt(floor, 0)} ms)`, figure: `${api.length - slow.length}/${api.length} within; worst ${fmt(worst)}×`, met: slow.length === 0 });
    const bloated = results.bundles.functions.filter((fn) => fn.unneeded.length > 0);
    checks.push({ target: 'no function bundles a package its declared access never uses', figure: `${bloated.length} function(s) do`, met: bloated.length === 0 });
  }
  for (const run of results.endToEnd ?? []) {
    checks.push({ target: `end to end, ${run.producers} producer(s) for ${run.seconds} s: zero errors`, figure: `${run.errors} error(s) in ${run.tasksCreated} tasks`, met: run.errors === TARGETS.endToEndErrors && run.tasksCreated > 0 });
  }
  const mail = results.triggers?.inboundMail;
  if (mail) {
    checks.push({ target: `/health p99 < ${TARGETS.healthDuringMailMs} ms while a ${Math.round(mail.bodyBytes / 1024)} KiB <script> mail arrives`, figure: `${fmt(mail.duringMail.p99, 1)} ms (max ${fmt(mail.duringMail.max, 1)} ms, ${mail.duringMail.count} probes)`, met: mail.duringMail.p99 < TARGETS.healthDuringMailMs });
  }
  checks.push(...dashboardChecks(results));
  return checks;
}

function dashboardChecks(results: BenchResults): TargetCheck[] {
  const dashboard = results.dashboard;
  if (!dashboard) return [];
  const kb = dashboard.initialJavaScript.gzipBytes / 1024;
  const eventBound = dashboard.streamPollMs + TARGETS.taskPageEventSlackMs;
  const slowest = dashboard.listPages.reduce((worst, page) => (page.contentMs > worst.contentMs ? page : worst), dashboard.listPages[0]);
  return [
    { target: `dashboard initial JavaScript ≤ ${TARGETS.dashboardInitialJsGzipKb} KB gzipped`, figure: `${fmt(kb, 1)} KB in ${dashboard.initialJavaScript.files.length} file(s)`, met: kb <= TARGETS.dashboardInitialJsGzipKb },
    { target: `task page shows a new event within the poll interval + ${TARGETS.taskPageEventSlackMs} ms (${eventBound} ms), p99`, figure: `p50 ${fmt(dashboard.taskPageEvent.p50, 0)} ms, p99 ${fmt(dashboard.taskPageEvent.p99, 0)} ms of ${dashboard.taskPageEvent.count}`, met: dashboard.taskPageEvent.p99 <= eventBound },
    { target: `every list page shows its content ≤ ${TARGETS.listPageContentMs} ms after navigation (median)`, figure: slowest ? `slowest ${slowest.path}: ${fmt(slowest.contentMs, 0)} ms (first paint ${fmt(slowest.firstPaintMs, 0)} ms)` : 'no pages', met: dashboard.listPages.every((page) => page.contentMs <= TARGETS.listPageContentMs) },
  ];
}

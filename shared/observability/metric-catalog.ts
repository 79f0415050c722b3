/**
 * Every metric Gatehouse publishes (CloudWatch embedded metric format through Powertools Metrics),
 * declared once: the functions emit them, the CDK alarms and dashboard read them.
 *
 * Dimension policy: every metric is published with the one dimension `service` (= SERVICE_NAME),
 * which alarms and the dashboard use. Metrics marked `breakdown` are also published a second time
 * with `service` plus the listed dimensions (for example `agent` and `task_type`), for per-agent
 * graphs, without changing the aggregate series alarms watch.
 */
export const METRICS_NAMESPACE = 'Gatehouse';
export const SERVICE_NAME = 'gatehouse';
export const SERVICE_DIMENSION = 'service';

export type MetricUnit = 'Count' | 'Milliseconds';

export interface MetricDefinition {
  name: string;
  unit: MetricUnit;
  /** Extra dimension sets this metric is also published with. */
  breakdown?: readonly string[];
  description: string;
}

function metric(name: string, unit: MetricUnit, description: string, breakdown?: readonly string[]): MetricDefinition {
  return { name, unit, description, ...(breakdown ? { breakdown } : {}) };
}

const BY_TASK = ['agent', 'task_type'] as const;

export const METRICS = {
  tasksCreated: metric('TasksCreated', 'Count', 'Tasks accepted by POST /tasks.', BY_TASK),
  tasksCompleted: metric('TasksCompleted', 'Count', 'Tasks that reached complete.', BY_TASK),
  tasksFailed: metric('TasksFailed', 'Count', 'Tasks that reached failed (any error code).', BY_TASK),
  tasksCancelled: metric('TasksCancelled', 'Count', 'Tasks cancelled by a client.', BY_TASK),
  tasksTimedOut: metric('TasksTimedOut', 'Count', 'Tasks the sweeper failed with agent_timeout.'),
  tasksClaimed: metric('TasksClaimed', 'Count', "Custom agents' tasks claimed by their workers (a claim after a lost lease or an approval counts again).", ['agent']),
  leasesLost: metric('LeasesLost', 'Count', "Workers' leases that ran out; the sweeper re-queued the task, or failed it at the third."),
  taskDuration: metric('TaskDuration', 'Milliseconds', 'From created_at to a terminal state.', BY_TASK),
  scansCreated: metric('ScansCreated', 'Count', 'Scans accepted by POST /projects/{id}/scans.'),
  scansCompleted: metric('ScansCompleted', 'Count', 'Scans that reached completed.'),
  scansFailed: metric('ScansFailed', 'Count', 'Scans that reached failed.'),
  scanDuration: metric('ScanDuration', 'Milliseconds', 'From scan creation to a terminal state.'),
  scansRedriven: metric('ScansRedriven', 'Count', 'Detector runs the sweeper sent again after a dead worker.'),
  approvalsRequested: metric('ApprovalsRequested', 'Count', 'Approvals created by agents.'),
  approvalsResolved: metric('ApprovalsResolved', 'Count', 'Approvals approved, denied or expired.'),
  approvalsPending: metric('ApprovalsPending', 'Count', 'Approvals waiting for a human, sampled by the sweeper.'),
  webhookDeliveries: metric('WebhookDeliveries', 'Count', 'Webhook delivery attempts (any outcome).'),
  webhookDeliveryFailures: metric('WebhookDeliveryFailures', 'Count', 'Attempts answered non-2xx or not at all.'),
  webhookDeliveriesDeadLettered: metric('WebhookDeliveriesDeadLettered', 'Count', 'Deliveries given up after the retry window.'),
  rateLimited: metric('RateLimitedRequests', 'Count', 'Requests answered 429.'),
} as const satisfies Record<string, MetricDefinition>;

export type MetricKey = keyof typeof METRICS;

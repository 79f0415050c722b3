const TONES: Record<string, 'ok' | 'bad' | 'wait' | 'busy' | 'plain'> = {
  complete: 'ok',
  completed: 'ok',
  approved: 'ok',
  active: 'ok',
  delivered: 'ok',
  succeeded: 'ok',
  failed: 'bad',
  denied: 'bad',
  expired: 'bad',
  cancelled: 'plain',
  disabled: 'plain',
  queued: 'wait',
  pending: 'wait',
  awaiting_approval: 'wait',
  running: 'busy',
  critical: 'bad',
  high: 'bad',
  medium: 'wait',
  open: 'wait',
  fixed: 'ok',
  dismissed: 'plain',
  task_created: 'ok',
  enabled: 'ok',
  paused: 'plain',
  closed: 'plain',
  skipped_overlap: 'plain',
  skipped_depth: 'wait',
  skipped_budget: 'wait',
  skipped_disabled: 'plain',
  missed: 'wait',
};

/** A status word with a colour that repeats, never replaces, the word. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${TONES[status] ?? 'plain'}`}>{status.replace(/_/g, ' ')}</span>;
}

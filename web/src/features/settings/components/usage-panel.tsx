import { useState } from 'react';
import { ProblemMessage } from '../../../components/problem-message';
import { QueryState } from '../../../components/query-state';
import { agentBars, duration, isMonth, taskTypeRows, utcMonth } from '../../../lib/usage';
import { useDownloadUsageCsv, useUsage, type Usage } from '../api/usage';
import { AdminOnly } from './admin-only';
import { UsageChart } from './usage-chart';

const FIGURES: [keyof Usage, string][] = [
  ['tasks_created', 'Tasks created'],
  ['tasks_completed', 'Tasks completed'],
  ['tasks_failed', 'Tasks failed'],
  ['tasks_cancelled', 'Tasks cancelled'],
  ['scans', 'Scans'],
  ['pages_scanned', 'Pages scanned'],
  ['approvals', 'Approvals requested'],
  ['tool_calls', 'Tool calls'],
  ['webhook_deliveries', 'Webhook delivery attempts'],
];

/** The month's figures, the chart of tasks by agent, and the same per agent and task type as a table. */
function UsageReport({ usage }: { usage: Usage }) {
  const bars = agentBars(usage);
  const rows = taskTypeRows(usage);
  return (
    <>
      <dl className="figures">
        {FIGURES.filter(([field]) => typeof usage[field] === 'number').map(([field, label]) => (
          <div key={field} className="fact">
            <dt>{label}</dt>
            <dd>{usage[field] as number}</dd>
          </div>
        ))}
        <div className="fact">
          <dt>Task time</dt>
          <dd>{duration(usage.task_seconds)}</dd>
        </div>
      </dl>
      <h3>Tasks by agent</h3>
      {bars.length === 0 ? (
        <p className="empty">No tasks in {usage.month}. Tasks run in this month show here by agent.</p>
      ) : (
        <>
          <UsageChart bars={bars} month={usage.month} />
          <div className="table-wrap">
            <table>
              <caption>Tasks by agent and task type, {usage.month}</caption>
              <thead>
                <tr>
                  <th scope="col">Agent</th>
                  <th scope="col">Task type</th>
                  <th scope="col">Created</th>
                  <th scope="col">Completed</th>
                  <th scope="col">Task time</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={`${row.agent} ${row.taskType}`}>
                    <td>{row.agent}</td>
                    <td>
                      <code>{row.taskType}</code>
                    </td>
                    <td>{row.created}</td>
                    <td>{row.completed}</td>
                    <td>{duration(row.seconds)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}

function UsageView() {
  const [month, setMonth] = useState(() => utcMonth(new Date()));
  const chosen = isMonth(month) ? month : utcMonth(new Date());
  const usage = useUsage(chosen);
  const download = useDownloadUsageCsv();
  return (
    <>
      <div className="filters">
        <div className="field">
          <label htmlFor="usage-month">Month</label>
          <input id="usage-month" type="month" value={month} max={utcMonth(new Date())} aria-describedby="usage-month-hint" onChange={(event) => setMonth(event.target.value)} />
          <span id="usage-month-hint" className="field-hint">
            Counted in UTC months.
          </span>
        </div>
        <div className="field filter-submit">
          <button type="button" className="button" disabled={download.isPending} onClick={() => download.mutate(chosen)}>
            {download.isPending ? 'Preparing…' : 'Download CSV'}
          </button>
        </div>
      </div>
      {download.error && <ProblemMessage error={download.error} />}
      <QueryState query={usage} loading="Loading usage…">
        {(figures) => <UsageReport usage={figures} />}
      </QueryState>
    </>
  );
}

/** `Usage`: a month's figures (admins), a chart with a table alternative, and the CSV. */
export function UsagePanel() {
  return (
    <section aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage</h2>
      <AdminOnly what="usage">
        <UsageView />
      </AdminOnly>
    </section>
  );
}

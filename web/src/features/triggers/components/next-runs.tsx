import { browserTimeZone, timeInZone } from '../../../lib/zoned-time';
import type { ScheduleSource, Trigger } from '../api/triggers';

/** A schedule's next five runs, in the viewer's time and in the trigger's own zone. */
export function NextRuns({ trigger, schedule }: { trigger: Trigger; schedule: ScheduleSource }) {
  const runs = trigger.next_runs ?? [];
  const mine = browserTimeZone();
  return (
    <section aria-labelledby="next-runs-heading">
      <h2 id="next-runs-heading">Next runs</h2>
      {!trigger.enabled ? (
        <p className="empty">Paused: no run is scheduled. Resume it to schedule runs again, counting from then.</p>
      ) : runs.length === 0 ? (
        <p className="empty">No more runs: the schedule's end has passed.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">The next {runs.length} runs</caption>
            <thead>
              <tr>
                <th scope="col">Your time ({mine})</th>
                <th scope="col">Trigger's zone ({schedule.timezone})</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run}>
                  <td>
                    <time dateTime={run}>{timeInZone(run)}</time>
                  </td>
                  <td>{timeInZone(run, schedule.timezone)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

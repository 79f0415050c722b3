import type { ServiceEvent } from '../api/events';
import { EventRow } from './event-row';

/** The event log as a table, oldest first, newest last. */
export function EventsTable({ events, caption }: { events: ServiceEvent[]; caption: string }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Type</th>
            <th scope="col">About</th>
            <th scope="col">By</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <EventRow key={event.event_id} event={event} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

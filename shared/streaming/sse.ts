import type { ServiceEvent } from '#shared/domain/event';

/**
 * Server-Sent Events framing (WHATWG HTML, "server-sent events"): `id`, `event`, `data` lines and
 * a blank line. `data` is one line of JSON, so no payload can break the framing.
 */
export function eventFrame(event: ServiceEvent): string {
  return `id: ${event.event_id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** A comment line: ignored by clients, keeps proxies and load balancers from closing the connection. */
export function commentFrame(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

/** Tells the client how long to wait before reconnecting after the server closes the stream. */
export function retryFrame(milliseconds: number): string {
  return `retry: ${Math.round(milliseconds)}\n\n`;
}

/**
 * A `stream.checkpoint` event: moves the client's last event id to `position` (everything up to
 * it was sent) without being one of the service's events. It carries data because common
 * clients (the `eventsource` package among them) only take an id from an event that has data;
 * clients ignore event names they do not listen for, and `onmessage` never sees it.
 */
export function positionFrame(position: string): string {
  return `id: ${position}\nevent: stream.checkpoint\ndata: {}\n\n`;
}

/**
 * The stream's last frame when it is refused mid-way (the caller's key revoked, the role no longer
 * allowing it): an `error` event whose data is the problem+json body an HTTP answer would carry,
 * with the position reached so a client that signs in again resumes without a gap.
 */
export function errorFrame(position: string, problem: object): string {
  return `id: ${position}\nevent: error\ndata: ${JSON.stringify(problem)}\n\n`;
}

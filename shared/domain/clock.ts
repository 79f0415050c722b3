/** Time as a port, so that tests and replays can pin it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function isoNow(clock: Clock = systemClock): string {
  return clock.now().toISOString();
}

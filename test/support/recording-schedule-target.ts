/** A schedule target for runner tests: records each event with its time, throws when the event asks to. */
export interface ScheduleInvocation {
  event: Record<string, unknown>;
  at: number;
}

// On globalThis: the runner imports this file through loadHandler, the test through vitest.
export const invocations: ScheduleInvocation[] = ((globalThis as { __scheduleInvocations?: ScheduleInvocation[] }).__scheduleInvocations ??= []);

export const handler = async (event: Record<string, unknown>): Promise<void> => {
  invocations.push({ event, at: Date.now() });
  if (event.fail === true) throw new Error(`target failed for ${String(event.id)}`);
};

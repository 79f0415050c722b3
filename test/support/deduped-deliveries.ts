import type { apiClient } from './local-runtime';
import type { ReceivedDelivery } from './webhook-receiver';

type Api = ReturnType<typeof apiClient>;

/** Each task's events of the subscribed types, from the event log, in their order. */
export async function expectedDeliveries(api: Api, taskIds: readonly string[], subscribed: readonly string[]): Promise<Map<string, string[]>> {
  const expected = new Map<string, string[]>();
  for (const taskId of taskIds) {
    const { body } = await api('GET', `/events?task_id=${taskId}&limit=100`);
    expected.set(taskId, body.events.filter((event: { type: string }) => subscribed.includes(event.type)).map((event: { event_id: string }) => event.event_id));
  }
  return expected;
}

/**
 * What a receiver that dedupes by X-Service-Delivery accepts: the first receipt of each delivery
 * id (at or after `from`, the receipts before it having been refused), with its task and position.
 */
export function firstReceipts(received: readonly ReceivedDelivery[], from = 0): Map<string, { taskId: string; order: number }> {
  const seen = new Map<string, { taskId: string; order: number }>();
  received.forEach((delivery, order) => {
    const id = String(delivery.headers['x-service-delivery']);
    if (order < from || seen.has(id)) return;
    seen.set(id, { taskId: JSON.parse(delivery.body).data.task_id, order });
  });
  return seen;
}

/** One task's accepted delivery ids in the order they arrived. */
export function inArrivalOrder(seen: Map<string, { taskId: string; order: number }>, taskId: string): string[] {
  return [...seen.entries()]
    .filter(([, info]) => info.taskId === taskId)
    .sort((x, y) => x[1].order - y[1].order)
    .map(([id]) => id);
}

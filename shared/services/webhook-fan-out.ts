import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { eventRepository } from '#shared/adapters/dynamodb/event-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { deliveryEntry, dispatchDeliveries, type DeliveryEntry } from '#shared/adapters/sqs/delivery-dispatcher';
import type { ServiceEvent } from '#shared/domain/event';
import { renderTask } from '#shared/domain/task';
import { BACKSTOP_SECONDS, predecessorOf } from '#shared/domain/webhook-ordering';
import { buildWebhookBody } from '#shared/domain/webhook-signature';
import type { Delivery, Webhook } from '#shared/domain/webhook';
import { withLogContext } from '#shared/observability/log-context';

/** Events of a task read per page while looking for predecessors (the nearest one is usually close). */
const HISTORY_PAGE = 25;
/** A task's history is read back this far at most; no real task has that many events. */
const HISTORY_PAGES = 400;

/** What fanning one event out came to: the attempts it queued, or why it must be retried. */
export type FanOutOutcome = { queued: number } | { error: unknown };

/**
 * The events of one task that a batch holds, and the task's earlier events read on demand from
 * its index, newest first: everything from `loadedDown` up to the batch's newest event is known.
 */
class TaskHistory {
  private readonly known = new Map<string, Pick<ServiceEvent, 'event_id' | 'type' | 'created_at'>>();
  private readonly upper: string;
  private loadedDown: string;
  private nextKey: Record<string, NativeAttributeValue> | undefined;
  private exhausted = false;
  private pages = 0;

  constructor(
    private readonly tenantId: string,
    private readonly taskId: string,
    batchEvents: readonly ServiceEvent[],
  ) {
    for (const event of batchEvents) this.known.set(event.event_id, event);
    this.upper = batchEvents.at(-1)!.event_id;
    this.loadedDown = this.upper;
  }

  /** The event a delivery of `event` to `webhook` waits for, or null when there is none. */
  async predecessor(event: ServiceEvent, webhook: Webhook): Promise<string | null> {
    for (;;) {
      // Only the range read completely counts: below it an event of another batch may be missing.
      const complete = [...this.known.values()].filter((candidate) => this.exhausted || candidate.event_id >= this.loadedDown);
      const found = predecessorOf(event, complete, webhook);
      if (found !== null || this.exhausted) return found;
      await this.loadPage();
    }
  }

  private async loadPage(): Promise<void> {
    const { events, nextKey } = await eventRepository.beforeForTask(this.tenantId, this.taskId, this.upper, HISTORY_PAGE, this.nextKey);
    for (const event of events) this.known.set(event.event_id, event);
    this.pages += 1;
    this.nextKey = nextKey;
    if (events.length > 0) this.loadedDown = events.at(-1)!.event_id;
    if (!nextKey || this.pages >= HISTORY_PAGES) this.exhausted = true;
  }
}

/**
 * Which of these deliveries' predecessors ended, as `tenant_id|webhook_id|event_id`. Read after the new
 * deliveries were written, while a predecessor's deliverer writes its end before it looks for the
 * next one: one of the two sees the other, so a waiting delivery is always either queued at once
 * or released.
 */
async function endedAmong(waiting: readonly Delivery[]): Promise<Set<string>> {
  const bySubscription = new Map<string, { tenantId: string; webhookId: string; eventIds: string[] }>();
  for (const delivery of waiting) {
    const key = `${delivery.tenant_id}|${delivery.webhook_id}`;
    const entry = bySubscription.get(key) ?? { tenantId: delivery.tenant_id, webhookId: delivery.webhook_id, eventIds: [] };
    entry.eventIds.push(delivery.previous_event_id!);
    bySubscription.set(key, entry);
  }
  const ended = new Set<string>();
  await Promise.all(
    [...bySubscription.values()].map(async ({ tenantId, webhookId, eventIds }) => {
      for (const found of await webhookRepository.getDeliveries(tenantId, webhookId, [...new Set(eventIds)])) {
        if (found.status !== 'pending' && found.status !== 'retrying') ended.add(`${tenantId}|${webhookId}|${found.event_id}`);
      }
    }),
  );
  return ended;
}

/** For task events the delivered `data.task` is the full task record with all artifact ids (decisions.md). */
function deliveryData(event: ServiceEvent, task: Awaited<ReturnType<typeof taskRepository.load>>): Record<string, unknown> {
  if (!event.task_id || !event.type.startsWith('task.') || !task) return event.data;
  return { ...event.data, task: renderTask(task) };
}

/**
 * Fans a batch of new events out to the tenants' enabled subscriptions: one delivery record per
 * (subscription, event), idempotent, naming the delivery it waits for, and its first attempt on
 * the queue. Running again for the same events queues nothing new once their first attempts were
 * recorded.
 *
 * A task's events in the batch are taken together, and all the batch's records are written before
 * any attempt is queued. Then every predecessor is read, those written here too, and a delivery
 * whose predecessor has not ended is found by that one's `releaseNext` when it ends, so its own
 * first attempt is only a backstop, queued after BACKSTOP_SECONDS instead of at once to find the
 * predecessor still open. The subscriptions, the task record and the task's history are read once
 * per batch, and attempts are queued ten to a request.
 */
export async function fanOutEvents(events: readonly ServiceEvent[]): Promise<Map<string, FanOutOutcome>> {
  const outcomes = new Map<string, FanOutOutcome>();
  const subscriptions = new Map<string, Promise<Webhook[]>>();
  const subscriptionsOf = (tenantId: string) => {
    let listed = subscriptions.get(tenantId);
    if (!listed) subscriptions.set(tenantId, (listed = webhookRepository.listAll(tenantId).then((all) => all.filter((webhook) => webhook.status === 'enabled'))));
    return listed;
  };
  const groups = new Map<string, ServiceEvent[]>();
  for (const event of [...events].sort((a, b) => a.event_id.localeCompare(b.event_id))) {
    const group = event.task_id ? `${event.tenant_id}#${event.task_id}` : event.event_id;
    groups.set(group, [...(groups.get(group) ?? []), event]);
  }
  const written = new Map<string, Delivery[]>();

  await Promise.all(
    [...groups.values()].map(async (group) => {
      try {
        for (const delivery of await fanOutGroup(group, subscriptionsOf)) written.set(delivery.event_id, [...(written.get(delivery.event_id) ?? []), delivery]);
      } catch (error) {
        // The stream retries from the first failed record; the task's later ones go again with it.
        for (const event of group) outcomes.set(event.event_id, { error });
      }
    }),
  );

  const fresh = [...written.values()].flat();
  // Every predecessor is read, after the writes above, those this batch wrote too: a deliverer
  // whose delivery of the task ended meanwhile may have found one of them and sent it already.
  const previousKey = (delivery: Delivery) => `${delivery.tenant_id}|${delivery.webhook_id}|${delivery.previous_event_id}`;
  let ended: Set<string>;
  try {
    ended = await endedAmong(fresh.filter((delivery) => typeof delivery.previous_event_id === 'string'));
  } catch (error) {
    for (const eventId of written.keys()) outcomes.set(eventId, { error });
    return outcomes;
  }
  const queuedBy = new Map<string, DeliveryEntry[]>([...written.keys()].map((eventId) => [eventId, []]));
  for (const event of events) if (!outcomes.has(event.event_id) && !queuedBy.has(event.event_id)) outcomes.set(event.event_id, { queued: 0 });
  for (const delivery of fresh) {
    const waits = typeof delivery.previous_event_id === 'string' && !ended.has(previousKey(delivery));
    // The fan-out's correlation id is the event's, so the deliverer's lines join it.
    queuedBy.get(delivery.event_id)!.push(withLogContext({ correlation_id: delivery.event_id }, () => deliveryEntry({ tenant_id: delivery.tenant_id, webhook_id: delivery.webhook_id, event_id: delivery.event_id, attempt: 1 }, waits ? BACKSTOP_SECONDS : 0)));
  }
  const refused = new Set(await dispatchDeliveries([...queuedBy.values()].flat()));
  for (const [eventId, entries] of queuedBy) {
    const failed = entries.filter((entry) => refused.has(entry));
    outcomes.set(eventId, failed.length > 0 ? { error: new Error(`${failed.length} delivery attempt(s) could not be queued`) } : { queued: entries.length });
  }
  return outcomes;
}

/**
 * Writes the deliveries of one task's events in the batch (or of one event without a task), each
 * naming its predecessor. Returns those whose first attempt is still to be queued.
 */
async function fanOutGroup(group: readonly ServiceEvent[], subscriptionsOf: (tenantId: string) => Promise<Webhook[]>): Promise<Delivery[]> {
  const first = group[0];
  const subscriptions = await subscriptionsOf(first.tenant_id);
  const planned = group.map((event) => ({ event, subscribers: subscriptions.filter((webhook) => webhook.events.includes(event.type)) }));
  const needsTask = first.task_id && planned.some(({ event, subscribers }) => subscribers.length > 0 && event.type.startsWith('task.'));
  // Read while the predecessors are looked up.
  const task = needsTask ? taskRepository.load(first.tenant_id, first.task_id!) : Promise.resolve(undefined);
  task.catch(() => undefined);
  const history = first.task_id ? new TaskHistory(first.tenant_id, first.task_id, group) : undefined;
  const pairs: { event: ServiceEvent; webhook: Webhook; previous: string | null }[] = [];
  for (const { event, subscribers } of planned) {
    for (const webhook of subscribers) pairs.push({ event, webhook, previous: history ? await history.predecessor(event, webhook) : null });
  }
  const taskRecord = await task;
  const bodies = new Map(planned.filter(({ subscribers }) => subscribers.length > 0).map(({ event }) => [event.event_id, buildWebhookBody({ ...event, data: deliveryData(event, taskRecord) })]));
  const deliveries = pairs.map(
    ({ event, webhook, previous }): Delivery => ({
      tenant_id: event.tenant_id,
      webhook_id: webhook.webhook_id,
      event_id: event.event_id,
      event_type: event.type,
      ...(event.task_id ? { task_id: event.task_id, previous_event_id: previous } : {}),
      body: bodies.get(event.event_id)!,
      status: 'pending',
      attempt_count: 0,
      attempts: [],
      created_at: event.created_at,
    }),
  );
  const stored = await Promise.all(deliveries.map((delivery) => webhookRepository.createDelivery(delivery)));
  return deliveries.filter((_, index) => stored[index].status === 'pending' && stored[index].attempt_count === 0);
}

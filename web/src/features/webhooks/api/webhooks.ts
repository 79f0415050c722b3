import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { usePagedList } from '../../../api/paged';
import type { components, operations } from '../../../api/schema';

export type Webhook = components['schemas']['Webhook'];
export type Delivery = components['schemas']['Delivery'];
export type DeliveryDetail = components['schemas']['DeliveryDetail'];
export type DeliveryStatus = Delivery['status'];
export type WebhookEventType = operations['postWebhooks']['requestBody']['content']['application/json']['events'][number];
export const DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'retrying', 'succeeded', 'failed', 'skipped'];

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: ['webhooks', 'list'] as const,
  detail: (id: string) => ['webhooks', 'detail', id] as const,
  deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
  delivery: (id: string, deliveryId: string) => ['webhooks', 'deliveries', id, 'detail', deliveryId] as const,
};

/** GET /webhooks: all of them in one answer (a tenant has at most 25; the route takes no cursor). */
export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.list, queryFn: async () => data(await api().GET('/webhooks')).webhooks });
}

/** GET /webhooks/{webhook_id}. */
export function useWebhook(webhookId: string) {
  return useQuery({ queryKey: webhookKeys.detail(webhookId), queryFn: async () => data(await api().GET('/webhooks/{webhook_id}', { params: { path: { webhook_id: webhookId } } })) });
}

/** GET /webhooks/{webhook_id}/deliveries, newest first, by status; refreshed while any is in flight. */
export function useDeliveries(webhookId: string, status: DeliveryStatus | undefined) {
  return usePagedList([...webhookKeys.deliveries(webhookId), status ?? 'any'], async (cursor) => {
    const page = data(await api().GET('/webhooks/{webhook_id}/deliveries', { params: { path: { webhook_id: webhookId }, query: { status, cursor, limit: 20 } } }));
    return { items: page.deliveries, next_cursor: page.next_cursor };
  });
}

/** GET /webhooks/{webhook_id}/deliveries/{delivery_id}: the request as sent and each response; fetched once opened. */
export function useDelivery(webhookId: string, deliveryId: string, enabled: boolean) {
  return useQuery({
    queryKey: webhookKeys.delivery(webhookId, deliveryId),
    queryFn: async () => data(await api().GET('/webhooks/{webhook_id}/deliveries/{delivery_id}', { params: { path: { webhook_id: webhookId, delivery_id: deliveryId } } })),
    enabled,
  });
}

/** The mutations of webhooks, each refreshing what it changes. */
export function useWebhookMutations() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: webhookKeys.all });
  const path = (webhookId: string) => ({ path: { webhook_id: webhookId } });
  return {
    create: useMutation({
      mutationFn: async (body: { url: string; events: WebhookEventType[]; secret: string }) => data(await api().POST('/webhooks', { body })),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: async ({ webhookId, ...body }: { webhookId: string; url?: string; events?: WebhookEventType[]; status?: Webhook['status'] }) => data(await api().PATCH('/webhooks/{webhook_id}', { params: path(webhookId), body })),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: async (webhookId: string) => {
        await api().DELETE('/webhooks/{webhook_id}', { params: path(webhookId) });
      },
      // Only the list: the deleted webhook's own page is being left and must not refetch into a 404.
      onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.list }),
    }),
    rotate: useMutation({
      mutationFn: async ({ webhookId, secret, overlapHours }: { webhookId: string; secret: string; overlapHours: number }) =>
        data(await api().POST('/webhooks/{webhook_id}/rotate-secret', { params: path(webhookId), body: { secret, overlap_hours: overlapHours } })),
      onSuccess: refresh,
    }),
    resend: useMutation({
      mutationFn: async ({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) =>
        data(await api().POST('/webhooks/{webhook_id}/deliveries/{delivery_id}/resend', { params: { path: { webhook_id: webhookId, delivery_id: deliveryId } } })),
      onSuccess: refresh,
    }),
    recover: useMutation({
      mutationFn: async ({ webhookId, since }: { webhookId: string; since: string }) => data(await api().POST('/webhooks/{webhook_id}/recover', { params: path(webhookId), body: { since } })),
      onSuccess: refresh,
    }),
  };
}

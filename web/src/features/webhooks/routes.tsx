import type { RouteObject } from 'react-router';

// Loaded when first opened, so the initial JavaScript stays within its budget.
export const webhooksRoutes: RouteObject[] = [
  { path: 'webhooks', lazy: async () => ({ Component: (await import('./webhooks-page')).WebhooksPage }) },
  { path: 'webhooks/:webhookId', lazy: async () => ({ Component: (await import('./webhook-page')).WebhookPage }) },
];

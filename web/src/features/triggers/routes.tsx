import type { RouteObject } from 'react-router';

// Loaded when first opened, so the initial JavaScript stays within its budget.
export const triggersRoutes: RouteObject[] = [
  { path: 'triggers', lazy: async () => ({ Component: (await import('./triggers-page')).TriggersPage }) },
  { path: 'triggers/:triggerId', lazy: async () => ({ Component: (await import('./trigger-page')).TriggerPage }) },
];

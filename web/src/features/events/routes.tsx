import type { RouteObject } from 'react-router';

// Loaded when first opened, so the initial JavaScript stays within its budget.
export const eventsRoutes: RouteObject[] = [{ path: 'events', lazy: async () => ({ Component: (await import('./events-page')).EventsPage }) }];

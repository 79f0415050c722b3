import type { RouteObject } from 'react-router';

// Loaded when first opened, so the initial JavaScript stays within its budget.
export const sessionsRoutes: RouteObject[] = [
  { path: 'sessions', lazy: async () => ({ Component: (await import('./sessions-page')).SessionsPage }) },
  { path: 'sessions/:sessionId', lazy: async () => ({ Component: (await import('./session-page')).SessionPage }) },
];

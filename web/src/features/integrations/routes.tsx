import type { RouteObject } from 'react-router';

// Loaded when first opened, so the initial JavaScript stays within its budget.
export const integrationsRoutes: RouteObject[] = [
  { path: 'integrations', lazy: async () => ({ Component: (await import('./integrations-page')).IntegrationsPage }) },
  { path: 'integrations/:integrationId', lazy: async () => ({ Component: (await import('./integration-page')).IntegrationPage }) },
];

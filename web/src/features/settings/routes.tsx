import type { RouteObject } from 'react-router';

// Loaded when first opened, so the initial JavaScript stays within its budget.
export const settingsRoutes: RouteObject[] = [{ path: 'settings', lazy: async () => ({ Component: (await import('./settings-page')).SettingsPage }) }];

import type { RouteObject } from 'react-router';

// Loaded when first opened, so the initial JavaScript stays within its budget.
export const invitationsRoutes: RouteObject[] = [{ path: 'invitations', lazy: async () => ({ Component: (await import('./invitations-page')).InvitationsPage }) }];

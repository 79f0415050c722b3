import { createBrowserRouter, Navigate } from 'react-router';
import { Layout } from './layout';
import { NotFoundPage } from './not-found-page';
import { CallbackPage } from '../auth/callback-page';
import { agentsRoutes } from '../features/agents/routes';
import { tasksRoutes } from '../features/tasks/routes';
import { approvalsRoutes } from '../features/approvals/routes';
import { triggersRoutes } from '../features/triggers/routes';
import { integrationsRoutes } from '../features/integrations/routes';
import { sessionsRoutes } from '../features/sessions/routes';
import { scansRoutes } from '../features/scans/routes';
import { eventsRoutes } from '../features/events/routes';
import { webhooksRoutes } from '../features/webhooks/routes';
import { settingsRoutes } from '../features/settings/routes';
import { invitationsRoutes } from '../features/invitations/routes';

/** The app's routes: /callback outside the shell, every feature's pages inside it. */
export function createRouter() {
  return createBrowserRouter([
    { path: '/callback', element: <CallbackPage /> },
    {
      path: '/',
      element: <Layout />,
      children: [
        { index: true, element: <Navigate to="/agents" replace /> },
        ...agentsRoutes,
        ...tasksRoutes,
        ...approvalsRoutes,
        ...triggersRoutes,
        ...integrationsRoutes,
        ...sessionsRoutes,
        ...scansRoutes,
        ...eventsRoutes,
        ...webhooksRoutes,
        ...settingsRoutes,
        ...invitationsRoutes,
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}

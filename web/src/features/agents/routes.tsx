import type { RouteObject } from 'react-router';
import { Page } from '../../components/page';

function AgentsPage() {
  return (
    <Page title="Agents" intro="Your deployed agents. Run a task from a card.">
      <p className="empty">This page is on its way.</p>
    </Page>
  );
}

export const agentsRoutes: RouteObject[] = [{ path: 'agents', element: <AgentsPage /> }];

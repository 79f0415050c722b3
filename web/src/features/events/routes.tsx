import type { RouteObject } from 'react-router';
import { Page } from '../../components/page';

/** Events: not built yet; its helper replaces this placeholder with the real pages. */
function EventsPage() {
  return (
    <Page title="Events" intro="Everything that happened in your tenant, newest last.">
      <p className="empty">This page is on its way.</p>
    </Page>
  );
}

export const eventsRoutes: RouteObject[] = [{ path: 'events', element: <EventsPage /> }];

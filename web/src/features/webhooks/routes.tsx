import type { RouteObject } from 'react-router';
import { Page } from '../../components/page';

/** Webhooks: not built yet; its helper replaces this placeholder with the real pages. */
function WebhooksPage() {
  return (
    <Page title="Webhooks" intro="Endpoints that receive your tenant's events.">
      <p className="empty">This page is on its way.</p>
    </Page>
  );
}

export const webhooksRoutes: RouteObject[] = [{ path: 'webhooks', element: <WebhooksPage /> }];

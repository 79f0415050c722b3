import type { RouteObject } from 'react-router';
import { Page } from '../../components/page';

/** Settings: not built yet; its helper replaces this placeholder with the real pages. */
function SettingsPage() {
  return (
    <Page title="Settings" intro="API keys, members and data retention.">
      <p className="empty">This page is on its way.</p>
    </Page>
  );
}

export const settingsRoutes: RouteObject[] = [{ path: 'settings', element: <SettingsPage /> }];

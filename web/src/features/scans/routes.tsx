import type { RouteObject } from 'react-router';
import { Page } from '../../components/page';

/** Scans: not built yet; its helper replaces this placeholder with the real pages. */
function ScansPage() {
  return (
    <Page title="Scans" intro="Scan your sites for accessibility, security and AI-readiness issues.">
      <p className="empty">This page is on its way.</p>
    </Page>
  );
}

export const scansRoutes: RouteObject[] = [{ path: 'scans', element: <ScansPage /> }];

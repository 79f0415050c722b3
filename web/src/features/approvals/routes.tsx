import type { RouteObject } from 'react-router';
import { Page } from '../../components/page';

/** Approvals: not built yet; its helper replaces this placeholder with the real pages. */
function ApprovalsPage() {
  return (
    <Page title="Approvals" intro="Approve, deny or edit what agents ask to do.">
      <p className="empty">This page is on its way.</p>
    </Page>
  );
}

export const approvalsRoutes: RouteObject[] = [
  { path: 'approvals', element: <ApprovalsPage /> },
  { path: 'approvals/:approvalId', element: <ApprovalsPage /> },
];

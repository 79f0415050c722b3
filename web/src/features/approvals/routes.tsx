import type { RouteObject } from 'react-router';
import { ApprovalPage } from './approval-page';
import { ApprovalsPage } from './approvals-page';

export const approvalsRoutes: RouteObject[] = [
  { path: 'approvals', element: <ApprovalsPage /> },
  { path: 'approvals/:approvalId', element: <ApprovalPage /> },
];

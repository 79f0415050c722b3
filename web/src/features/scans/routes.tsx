import type { RouteObject } from 'react-router';
import { ProjectPage } from './project-page';
import { ProjectsPage } from './projects-page';
import { RuleHistoryPage } from './rule-history-page';
import { ScanPage } from './scan-page';

export const scansRoutes: RouteObject[] = [
  { path: 'scans', element: <ProjectsPage /> },
  { path: 'scans/projects/:projectId', element: <ProjectPage /> },
  { path: 'scans/projects/:projectId/rules/:ruleId', element: <RuleHistoryPage /> },
  { path: 'scans/:scanId', element: <ScanPage /> },
];

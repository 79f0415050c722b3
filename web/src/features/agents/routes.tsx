import type { RouteObject } from 'react-router';
import { AgentsPage } from './agents-page';

export const agentsRoutes: RouteObject[] = [{ path: 'agents', element: <AgentsPage /> }];

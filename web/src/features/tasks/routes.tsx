import type { RouteObject } from 'react-router';
import { TaskPage } from './task-page';
import { TasksPage } from './tasks-page';

export const tasksRoutes: RouteObject[] = [
  { path: 'tasks', element: <TasksPage /> },
  { path: 'tasks/:taskId', element: <TaskPage /> },
];

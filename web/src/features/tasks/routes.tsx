import type { RouteObject } from 'react-router';
import { Page } from '../../components/page';

function TasksPage() {
  return (
    <Page title="Tasks" intro="Every task, newest first.">
      <p className="empty">This page is on its way.</p>
    </Page>
  );
}

export const tasksRoutes: RouteObject[] = [{ path: 'tasks', element: <TasksPage /> }];

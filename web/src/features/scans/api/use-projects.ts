import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { usePagedList } from '../../../api/paged';
import type { components, operations } from '../../../api/schema';

export type Project = components['schemas']['Project'];
export type ProjectInput = operations['postProjects']['requestBody']['content']['application/json'];
export type ProjectChanges = NonNullable<operations['patchProjectsByProjectId']['requestBody']>['content']['application/json'];

/** The tenant's projects, newest first. */
export function useProjects() {
  return usePagedList(['projects', 'list'], async (cursor) => {
    const page = data(await api().GET('/projects', { params: { query: { cursor, limit: 20 } } }));
    return { items: page.data as Project[], next_cursor: page.next_cursor };
  });
}

export function useProject(projectId: string) {
  return useQuery({ queryKey: ['projects', 'one', projectId], queryFn: async () => data(await api().GET('/projects/{project_id}', { params: { path: { project_id: projectId } } })) as Project });
}

/** POST /projects. */
export function useCreateProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ProjectInput) => data(await api().POST('/projects', { body })) as Project,
    onSuccess: () => client.invalidateQueries({ queryKey: ['projects', 'list'] }),
  });
}

/** PATCH /projects/{id}: the project's settings. */
export function useUpdateProject(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ProjectChanges) => data(await api().PATCH('/projects/{project_id}', { params: { path: { project_id: projectId } }, body })) as Project,
    onSuccess: (project) => {
      client.setQueryData(['projects', 'one', projectId], project);
      void client.invalidateQueries({ queryKey: ['projects', 'list'] });
    },
  });
}

import type { Project } from '#shared/scans/scan';

export function renderProject(project: Project) {
  return { project_id: project.project_id, name: project.name, target: project.target, default_detectors: project.default_detectors, crawl: project.crawl, created_at: project.created_at, updated_at: project.updated_at };
}

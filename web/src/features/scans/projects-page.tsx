import { Link } from 'react-router';
import { IfAllowed } from '../../components/if-allowed';
import { LoadMore } from '../../components/load-more';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { RelativeTime } from '../../components/relative-time';
import { listState } from './api/list-state';
import { useProjects } from './api/use-projects';
import { CreateProjectButton } from './components/create-project-button';
import { detectorLabel } from './lib/finding-filters';

/** Scans: the tenant's projects (websites to scan); each opens its scans. */
export function ProjectsPage() {
  const projects = useProjects();
  return (
    <Page title="Scans" intro="Scan your sites for accessibility, security and AI-readiness issues. Each project is one site." actions={<IfAllowed role="operator"><CreateProjectButton /></IfAllowed>}>
      <h2>Projects</h2>
      <QueryState query={listState(projects)} loading="Loading projects…" isEmpty={(items) => items.length === 0} empty={<p>No projects yet. Create a project for a site, then run a scan of it.</p>}>
        {(items) => (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  <th scope="col">Target</th>
                  <th scope="col">Detectors</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {items.map((project) => (
                  <tr key={project.project_id}>
                    <td>
                      <Link to={`/scans/projects/${project.project_id}`}>{project.name}</Link>
                    </td>
                    <td className="wrap-anywhere">{project.target}</td>
                    <td>{project.default_detectors.map(detectorLabel).join(', ')}</td>
                    <td>
                      <RelativeTime value={project.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <LoadMore query={projects} />
    </Page>
  );
}

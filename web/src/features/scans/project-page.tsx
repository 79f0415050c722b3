import { Link, useParams } from 'react-router';
import { CopyableId } from '../../components/copyable-id';
import { IfAllowed } from '../../components/if-allowed';
import { LoadMore } from '../../components/load-more';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { RelativeTime } from '../../components/relative-time';
import { StatusBadge } from '../../components/status-badge';
import { listState } from './api/list-state';
import { useProject } from './api/use-projects';
import { useProjectScans } from './api/use-scans';
import { ProjectSettings } from './components/project-settings';
import { Risk } from './components/risk';
import { RunScanButton } from './components/run-scan-button';

function ProjectScans({ projectId }: { projectId: string }) {
  const scans = useProjectScans(projectId);
  return (
    <section aria-labelledby="scans-heading">
      <h2 id="scans-heading">Scans</h2>
      <QueryState query={listState(scans)} loading="Loading scans…" isEmpty={(items) => items.length === 0} empty={<p>No scans yet. Run scan to crawl the site and see its findings.</p>}>
        {(items) => (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Scan</th>
                  <th scope="col">Status</th>
                  <th scope="col">Risk</th>
                  <th scope="col">Finished</th>
                </tr>
              </thead>
              <tbody>
                {items.map((scan) => (
                  <tr key={scan.scan_id}>
                    <td>
                      <Link to={`/scans/${scan.scan_id}`}>
                        Scan of <RelativeTime value={scan.created_at} />
                      </Link>
                    </td>
                    <td>
                      <StatusBadge status={scan.status} />
                    </td>
                    <td>
                      <Risk score={scan.risk_score} level={scan.risk_level} />
                    </td>
                    <td>
                      <RelativeTime value={scan.completed_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <LoadMore query={scans} />
    </section>
  );
}

/** A project: its scans, `Run scan`, and its settings. */
export function ProjectPage() {
  const { projectId = '' } = useParams();
  const project = useProject(projectId);
  return (
    <Page title={project.data?.name ?? 'Project'} intro={<>Project <CopyableId value={projectId} label="project id" /></>} actions={<IfAllowed role="operator"><RunScanButton projectId={projectId} /></IfAllowed>}>
      <p>
        <Link to="/scans">All projects</Link>
      </p>
      <QueryState query={project} loading="Loading the project…">
        {(item) => (
          <>
            <dl className="facts">
              <dt>Target</dt>
              <dd>
                <a href={item.target} rel="noreferrer noopener" target="_blank">
                  {item.target}
                </a>
              </dd>
              <dt>Updated</dt>
              <dd>
                <RelativeTime value={item.updated_at} />
              </dd>
            </dl>
            <ProjectScans projectId={projectId} />
            <ProjectSettings project={item} />
          </>
        )}
      </QueryState>
    </Page>
  );
}

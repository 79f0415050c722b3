import { Link, useParams } from 'react-router';
import { CopyableId } from '../../components/copyable-id';
import { Page } from '../../components/page';
import { QueryState } from '../../components/query-state';
import { useScan } from './api/use-scans';
import { ExportButtons } from './components/export-buttons';
import { FindingsSection } from './components/findings-section';
import { ScanSummary } from './components/scan-summary';
import { isScanActive } from './lib/scan-progress';

/** One scan: progress while it runs, then its risk, findings and downloads. */
export function ScanPage() {
  const { scanId = '' } = useParams();
  const scan = useScan(scanId);
  return (
    <Page title="Scan" intro={<>Scan <CopyableId value={scanId} label="scan id" /></>}>
      <QueryState query={scan} loading="Loading the scan…">
        {(item) => (
          <>
            <p>
              <Link to={`/scans/projects/${item.project_id}`}>Its project</Link>
            </p>
            <ScanSummary scan={item} />
            {!isScanActive(item.status) && (
              <>
                <ExportButtons scanId={item.scan_id} />
                <FindingsSection key={item.status} scanId={item.scan_id} projectId={item.project_id} />
              </>
            )}
          </>
        )}
      </QueryState>
    </Page>
  );
}

import { useNavigate } from 'react-router';
import { ProblemMessage } from '../../../components/problem-message';
import { useRunScan } from '../api/use-scans';

/** `Run scan`: starts a scan with the project's settings and opens its page, where it shows progress. */
export function RunScanButton({ projectId }: { projectId: string }) {
  const run = useRunScan(projectId);
  const navigate = useNavigate();
  return (
    <>
      <button type="button" className="button primary" disabled={run.isPending} onClick={() => run.mutate(undefined, { onSuccess: (scan) => navigate(`/scans/${scan.scan_id}`) })}>
        {run.isPending ? 'Starting…' : 'Run scan'}
      </button>
      {run.error && <ProblemMessage error={run.error} />}
    </>
  );
}

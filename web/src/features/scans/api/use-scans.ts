import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { usePagedList } from '../../../api/paged';
import type { components } from '../../../api/schema';
import { isScanActive } from '../lib/scan-progress';

export interface DetectorResult {
  status: string;
  risk_score: number;
  risk_level: string;
  summary: Record<'total' | 'critical' | 'high' | 'medium' | 'low' | 'info', number>;
  /** Why the detector failed, in words. */
  error?: string;
}

/** A link or page the scan could not use, and why (reasons: docs/scans.md). */
export interface CrawlProblem {
  url: string;
  reason: string;
  detail?: string;
}

export type ScanSummary = components['schemas']['ScanSummary'];

/** A scan: while it runs `detectors` names them and `progress` says which ended; after, `detectors` holds each result. */
export type Scan = components['schemas']['Scan'] & {
  detectors: string[] | Record<string, DetectorResult>;
  progress?: Record<string, string>;
  risk_score?: number;
  risk_level?: string;
  duration_seconds?: number;
  estimated_duration_seconds?: number;
  environment?: string;
  metadata?: Record<string, unknown>;
  crawl_problems?: CrawlProblem[];
};

/** How often a running scan is read again. */
const POLL_MS = 1_500;

/** A project's scans, newest first. */
export function useProjectScans(projectId: string) {
  return usePagedList(['scans', 'of', projectId], async (cursor) => {
    const page = data(await api().GET('/projects/{project_id}/scans', { params: { path: { project_id: projectId }, query: { cursor, limit: 20 } } }));
    return { items: page.data as ScanSummary[], next_cursor: page.next_cursor };
  });
}

/** One scan, polled while it is pending or running. */
export function useScan(scanId: string) {
  return useQuery({
    queryKey: ['scans', 'one', scanId],
    queryFn: async () => data(await api().GET('/scans/{scan_id}', { params: { path: { scan_id: scanId } } })) as Scan,
    refetchInterval: (query) => (query.state.data && isScanActive(query.state.data.status) ? POLL_MS : false),
  });
}

/** POST /projects/{id}/scans with the project's defaults. */
export function useRunScan(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => data(await api().POST('/projects/{project_id}/scans', { params: { path: { project_id: projectId } }, body: {} })) as Scan,
    onSuccess: () => client.invalidateQueries({ queryKey: ['scans', 'of', projectId] }),
  });
}

/** POST /scans/{id}/cancel. */
export function useCancelScan(scanId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => data(await api().POST('/scans/{scan_id}/cancel', { params: { path: { scan_id: scanId } } })),
    onSettled: () => client.invalidateQueries({ queryKey: ['scans'] }),
  });
}

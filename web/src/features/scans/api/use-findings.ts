import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { usePagedList } from '../../../api/paged';
import type { components } from '../../../api/schema';

export type Finding = components['schemas']['Finding'] & {
  description?: string;
  remediation?: string;
  cvss_score?: number | null;
  references?: string[];
  location?: FindingPlace;
  /** Pages showing this very element problem (one template's), when more than one. */
  page_count?: number;
  other_locations?: FindingPlace[];
  dismissed_reason?: string;
  comment?: string;
  regression?: boolean;
};

export type Detector = 'accessibility' | 'security' | 'ai_readiness';

/** A scan's findings, most severe first, filtered by the API on detector and severity (comma-separated). */
export function useScanFindings(scanId: string, filter: { detector?: Detector; severity?: string }) {
  return usePagedList(['findings', 'of', scanId, filter.detector ?? '', filter.severity ?? ''], async (cursor) => {
    const page = data(await api().GET('/scans/{scan_id}/findings', { params: { path: { scan_id: scanId }, query: { detector: filter.detector, severity: filter.severity, cursor, limit: 100 } } }));
    return { items: page.data as Finding[], next_cursor: page.next_cursor, total: page.total };
  });
}

export interface FindingPlace {
  type: string;
  url?: string;
  selector?: string;
  snippet?: string;
  line?: number;
  column?: number;
}

export interface FindingChange {
  status: 'dismissed' | 'open';
  dismissed_reason?: 'false_positive' | 'wont_fix' | 'used_in_tests' | 'accepted_risk';
  comment?: string;
}

/** PATCH /findings/{id}: dismiss with a reason, or open again. */
export function useUpdateFinding(findingId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: FindingChange) => data(await api().PATCH('/findings/{finding_id}', { params: { path: { finding_id: findingId } }, body })) as Finding,
    onSuccess: () => client.invalidateQueries({ queryKey: ['findings'] }),
  });
}

export interface RuleHistoryEntry {
  scan_id: string;
  scanned_at: string;
  status: string;
  count: number;
}

/** One rule across the project's scans, newest first. */
export function useRuleHistory(projectId: string, ruleId: string) {
  return useQuery({
    queryKey: ['findings', 'history', projectId, ruleId],
    queryFn: async () => {
      const history = data(await api().GET('/projects/{project_id}/findings/{rule_id}/history', { params: { path: { project_id: projectId, rule_id: ruleId } } }));
      return { ...history, history: history.history as unknown as RuleHistoryEntry[] };
    },
  });
}

/**
 * The parts of the Gatehouse API the CLI reads, as the server sends them (snake_case). Written
 * out rather than generated: the CLI is a package of its own, and reads only these fields.
 */

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const DETECTORS = ['accessibility', 'security', 'ai_readiness'] as const;
export type Detector = (typeof DETECTORS)[number];

export type ScanStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export type SeverityCounts = Record<Severity, number>;

/** One detector's result in an ended scan. */
export interface DetectorResult {
  status: 'completed' | 'failed';
  risk_score: number;
  risk_level: string;
  summary: SeverityCounts & { total: number };
  error?: string;
}

/**
 * `GET /scans/{scan_id}`. While the scan runs, `detectors` lists the names and `progress` says
 * which ended; once it ended, `detectors` maps each name to its result.
 */
export interface Scan {
  scan_id: string;
  project_id: string;
  status: ScanStatus;
  created_at: string;
  detectors: Detector[] | Partial<Record<Detector, DetectorResult>>;
  progress?: Partial<Record<Detector, 'running' | 'completed'>>;
  metadata?: Record<string, string | number | boolean>;
  risk_score?: number;
  risk_level?: string;
  completed_at?: string;
  duration_seconds?: number;
}

/** `POST /projects/{project_id}/scans` 201. */
export interface CreatedScan {
  scan_id: string;
  project_id: string;
  status: ScanStatus;
  detectors: Detector[];
  created_at: string;
  estimated_duration_seconds: number;
}

export interface CreateScanBody {
  detectors?: Detector[];
  environment?: string;
  metadata?: Record<string, string | number | boolean>;
}

/** An entry of `GET /projects/{project_id}/scans`. */
export interface ScanSummary {
  scan_id: string;
  status: ScanStatus;
  risk_score: number | null;
  risk_level: string | null;
  created_at: string;
  completed_at: string | null;
}

export type FindingStatus = 'open' | 'fixed' | 'dismissed';

/** An entry of `GET /scans/{scan_id}/findings`; `id` is the same for the same problem in every scan of a project. */
export interface Finding {
  id: string;
  detector: Detector;
  severity: Severity;
  rule_id: string;
  title: string;
  status: FindingStatus;
  location?: { url?: string; selector?: string };
}

/** A page of a list; `next_cursor` is null on the last one. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** RFC 9457 problem details, as every error answer carries them. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: { path: string; message: string }[];
}

import { parseArgs } from 'node:util';
import { UsageError } from './errors.ts';
import { THRESHOLDS, type Threshold } from './gate.ts';
import { MAIN_HELP, SCAN_HELP } from './help.ts';
import { DETECTORS, type Detector } from './wire.ts';

export interface ScanOptions {
  project: string;
  failOn: Threshold;
  sarif?: string;
  newOnly: boolean;
  /** From `--branch`; the CI's branch is filled in later, from the environment. */
  branch?: string;
  /** From `--baseline-branch`; the CI's target branch is filled in later, from the environment. */
  baselineBranch?: string;
  detectors?: Detector[];
  environment?: string;
  metadata: Record<string, string>;
  timeoutSeconds: number;
  json: boolean;
}

export type Command = { name: 'help'; text: string } | { name: 'version' } | { name: 'scan'; options: ScanOptions };

/** The API's limits on a scan's fields (functions/scans/schemas.ts), checked here so that a mistake is a clear usage error. */
const LIMITS = { environment: 64, metadataKey: 64, metadataValue: 1024 };

/** Flags someone might try for the key; refused with the reason, never echoed. */
const KEY_FLAG = /^--(api-key|key|token)(=|$)/;

const SCAN_FLAGS = {
  project: { type: 'string' },
  'fail-on': { type: 'string', default: 'high' },
  sarif: { type: 'string' },
  'new-only': { type: 'boolean', default: false },
  branch: { type: 'string' },
  'baseline-branch': { type: 'string' },
  detectors: { type: 'string' },
  environment: { type: 'string' },
  metadata: { type: 'string', multiple: true },
  timeout: { type: 'string', default: '900' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The command line, checked: a UsageError names the first thing wrong. */
export function parseCommand(argv: string[]): Command {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError('No command given.', 'gatehouse --help');
  if (first === '--help' || first === '-h') return { name: 'help', text: MAIN_HELP };
  if (first === '--version' || first === '-v') return { name: 'version' };
  if (first !== 'scan') throw new UsageError(`Unknown command '${first}'.`, 'gatehouse --help');
  if (rest.some((arg) => KEY_FLAG.test(arg))) throw new UsageError('The API key is read from GATEHOUSE_API_KEY only: as a flag it would show in CI logs.');
  let values: ScanFlags;
  try {
    values = parseScanFlags(rest);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0] : String(error));
  }
  if (values.help) return { name: 'help', text: SCAN_HELP };
  return { name: 'scan', options: scanOptions(values) };
}

const parseScanFlags = (args: string[]) => parseArgs({ args, options: SCAN_FLAGS, strict: true, allowPositionals: false }).values;
type ScanFlags = ReturnType<typeof parseScanFlags>;

function scanOptions(values: ScanFlags): ScanOptions {
  const project = values.project?.trim();
  if (!project) throw new UsageError('--project <id> is required.');
  const failOn = values['fail-on'].toLowerCase() as Threshold;
  if (!THRESHOLDS.includes(failOn)) throw new UsageError(`--fail-on must be one of ${THRESHOLDS.join(', ')}; got '${values['fail-on']}'.`);
  const timeoutSeconds = Number(values.timeout);
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1) throw new UsageError(`--timeout must be a whole number of seconds, 1 or more; got '${values.timeout}'.`);
  if (values.sarif !== undefined && values.sarif.trim() === '') throw new UsageError('--sarif needs a file name.');
  for (const flag of ['branch', 'baseline-branch'] as const) {
    const value = values[flag];
    if (value !== undefined && (value.trim() === '' || value.length > LIMITS.metadataValue)) throw new UsageError(`--${flag} must be 1 to ${LIMITS.metadataValue} characters.`);
  }
  if (values.environment !== undefined && (values.environment === '' || values.environment.length > LIMITS.environment)) throw new UsageError(`--environment must be 1 to ${LIMITS.environment} characters.`);
  return {
    project,
    failOn,
    sarif: values.sarif,
    newOnly: values['new-only'],
    branch: values.branch?.trim(),
    baselineBranch: values['baseline-branch']?.trim(),
    detectors: values.detectors === undefined ? undefined : parseDetectors(values.detectors),
    environment: values.environment,
    metadata: parseMetadata(values.metadata ?? []),
    timeoutSeconds,
    json: values.json,
  };
}

/** `security,accessibility` → the detectors, each once. */
export function parseDetectors(list: string): Detector[] {
  const names = [...new Set(list.split(',').map((name) => name.trim()).filter(Boolean))];
  const unknown = names.filter((name) => !(DETECTORS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) throw new UsageError(`--detectors takes a comma-separated list of ${DETECTORS.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}.`);
  return names as Detector[];
}

/** `key=value` pairs (the value may hold `=`); the last of a repeated key wins. */
export function parseMetadata(pairs: string[]): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const pair of pairs) {
    const split = pair.indexOf('=');
    const key = split < 0 ? '' : pair.slice(0, split).trim();
    const value = pair.slice(split + 1);
    if (split < 0 || key === '') throw new UsageError(`--metadata takes key=value; got '${pair}'.`);
    // The CLI compares by these two, so the metadata must say what it compared.
    if (key === 'branch') throw new UsageError('Set the branch with --branch, not --metadata.');
    if (key === 'baseline_branch') throw new UsageError('Set the baseline branch with --baseline-branch, not --metadata.');
    if (key.length > LIMITS.metadataKey) throw new UsageError(`--metadata keys are at most ${LIMITS.metadataKey} characters: '${key.slice(0, 20)}…'.`);
    if (value.length > LIMITS.metadataValue) throw new UsageError(`--metadata values are at most ${LIMITS.metadataValue} characters (key '${key}').`);
    metadata[key] = value;
  }
  return metadata;
}

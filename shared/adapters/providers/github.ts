import { Octokit } from '@octokit/rest';
import { pinnedFetch } from '#shared/adapters/http/pinned-fetch';
import type { PinnedTarget } from '#shared/adapters/http/ssrf-guard';
import { ProviderFailure } from '#shared/domain/provider-failure';

/** Per call: a provider that stops answering fails the call rather than the task's whole run. */
const CALL_TIMEOUT_MS = 10_000;
/** Bounds of what a read tool hands an agent: files listed, bytes of one file. */
export const MAX_LISTED_FILES = 2_000;
export const MAX_FILE_BYTES = 200_000;

export interface GitHubConnection {
  token: string;
  apiUrl: string;
  /** The address the SSRF guard vetted: every connection goes there, the name is not resolved again. */
  pin?: PinnedTarget;
}

/** The official client for github.com or a GitHub Enterprise Server (`https://host/api/v3`); our own retries, not its. */
export function gitHubClient(connection: GitHubConnection): Octokit {
  const request = { retries: 0, ...(connection.pin ? { fetch: pinnedFetch(connection.pin) } : {}) };
  return new Octokit({ auth: connection.token, baseUrl: connection.apiUrl.replace(/\/+$/, ''), userAgent: 'gatehouse', request, log: { debug() {}, info() {}, warn() {}, error() {} } });
}

const timeout = () => ({ request: { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) } });

/** Octokit's errors in the proxy's terms; anything unknown propagates. */
export function gitHubFailure(error: unknown): ProviderFailure {
  const status = (error as { status?: unknown }).status;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof status !== 'number') return new ProviderFailure('transient', `GitHub could not be reached: ${message}`);
  const headers = ((error as { response?: { headers?: Record<string, string | undefined> } }).response?.headers ?? {}) as Record<string, string | undefined>;
  if (status === 401) return new ProviderFailure('credentials_refused', 'GitHub refused the token (401 Bad credentials).', '401');
  const retryAfter = Number(headers['retry-after']);
  if (status === 429 || (status === 403 && headers['x-ratelimit-remaining'] === '0')) {
    return new ProviderFailure('transient', `GitHub rate-limited the call (${status}).`, String(status), Number.isFinite(retryAfter) ? retryAfter : undefined);
  }
  if (status >= 500) return new ProviderFailure('transient', `GitHub answered ${status}: ${message}`, String(status));
  return new ProviderFailure('rejected', `GitHub answered ${status}: ${message}`, String(status));
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw gitHubFailure(error);
  }
}

function splitRepository(repository: string): { owner: string; repo: string } {
  const [owner, repo] = repository.split('/');
  return { owner, repo };
}

/** Who the token belongs to: the connect-time check. */
export async function gitHubAccount(client: Octokit): Promise<Record<string, string>> {
  const { data } = await call(() => client.rest.users.getAuthenticated(timeout()));
  return { login: data.login, id: String(data.id), type: String(data.type) };
}

/** Every file of the repository at `ref` (default branch when absent), at most MAX_LISTED_FILES. */
export async function listFiles(client: Octokit, repository: string, ref?: string): Promise<{ repository: string; ref: string; files: { path: string; size: number }[]; truncated: boolean }> {
  const { owner, repo } = splitRepository(repository);
  const branch = ref ?? (await call(() => client.rest.repos.get({ owner, repo, ...timeout() }))).data.default_branch;
  const { data } = await call(() => client.rest.git.getTree({ owner, repo, tree_sha: branch, recursive: '1', ...timeout() }));
  const blobs = data.tree.filter((entry) => entry.type === 'blob' && typeof entry.path === 'string').map((entry) => ({ path: entry.path!, size: entry.size ?? 0 }));
  return { repository, ref: branch, files: blobs.slice(0, MAX_LISTED_FILES), truncated: Boolean(data.truncated) || blobs.length > MAX_LISTED_FILES };
}

/** One file's text, cut at MAX_FILE_BYTES (the answer says so). */
export async function readFile(client: Octokit, repository: string, path: string, ref?: string): Promise<{ repository: string; path: string; size: number; content: string; truncated: boolean }> {
  const { owner, repo } = splitRepository(repository);
  const { data } = await call(() => client.rest.repos.getContent({ owner, repo, path, ...(ref ? { ref } : {}), ...timeout() }));
  if (Array.isArray(data) || data.type !== 'file' || typeof (data as { content?: unknown }).content !== 'string') {
    throw new ProviderFailure('rejected', `${repository}:${path} is not a file.`, 'not_a_file');
  }
  const bytes = Buffer.from((data as { content: string }).content, 'base64');
  const kept = bytes.subarray(0, MAX_FILE_BYTES);
  return { repository, path, size: data.size, content: kept.toString('utf8'), truncated: bytes.length > MAX_FILE_BYTES };
}

/** Marks an issue as made for one approval, so a retry finds it instead of opening a second one. */
export const approvalMarker = (key: string) => `<!-- gatehouse:${key} -->`;

/**
 * Opens an issue once per key: GitHub has no idempotency keys, so the body carries a marker and a
 * retried call first looks for it among the newest issues (the issue list is read-your-writes;
 * search is not, its index lags).
 */
export async function createIssue(client: Octokit, request: { repository: string; title: string; body: string; labels?: string[]; idempotencyKey: string }): Promise<{ number: number; url: string }> {
  const { owner, repo } = splitRepository(request.repository);
  const marker = approvalMarker(request.idempotencyKey);
  const { data: recent } = await call(() => client.rest.issues.listForRepo({ owner, repo, state: 'all', sort: 'created', direction: 'desc', per_page: 50, ...timeout() }));
  const existing = recent.find((issue) => issue.body?.includes(marker));
  if (existing) return { number: existing.number, url: existing.html_url };
  const { data } = await call(() => client.rest.issues.create({ owner, repo, title: request.title, body: `${request.body}\n\n${marker}`, ...(request.labels ? { labels: request.labels } : {}), ...timeout() }));
  return { number: data.number, url: data.html_url };
}

import { createHash, randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback GitHub REST API for tests that drive the real `@octokit/rest` client: same paths,
 * status codes, field names and headers as api.github.com for the few endpoints the app uses,
 * served both at the root (github.com style base URL) and under `/api/v3` (GitHub Enterprise
 * Server style). Everything it knows lives in `state`, which tests seed, change and inspect.
 */

export interface GitHubTokenOwner {
  login: string;
  id: number;
  /** Classic-token scopes, sent back in `x-oauth-scopes`; omitted for fine-grained tokens. */
  scopes?: string[];
}

export interface GitHubRepoSeed {
  default_branch: string;
  private: boolean;
  /** The default branch's files by path (`src/index.ts`); folders are implied by the paths. */
  files: Map<string, string | Buffer>;
  /** Logins besides the owner that may see a private repository. */
  collaborators?: string[];
}

export interface GitHubIssueRecord {
  /** `owner/name` */
  repo: string;
  number: number;
  title: string;
  body: string | null;
  labels: string[];
  state: 'open' | 'closed';
  author: string;
  createdAt: string;
}

export interface GitHubRequestRecord {
  method: string;
  /** As received, prefix and query string included (`/api/v3/user`). */
  path: string;
  authorization?: string;
}

export interface GitHubFailure {
  /** Sent as `retry-after` (seconds); 429 gets 1 unless told. */
  retryAfter?: number;
  message?: string;
}

export interface GitHubApiState {
  tokens: Map<string, GitHubTokenOwner>;
  /** Keyed `owner/name`; looked up case-insensitively, as GitHub does. */
  repos: Map<string, GitHubRepoSeed>;
  /** Issues in creation order (the API lists them newest first). */
  issues: GitHubIssueRecord[];
  requests: GitHubRequestRecord[];
  /** A recursive tree with more entries than this answers `truncated: true`, as GitHub does past its limits. */
  treeEntryLimit: number;
  /** The next `count` requests, whatever they are, answer `status` (502/503 transient, 429 rate limited). */
  failNext(count: number, status: number, failure?: GitHubFailure): void;
}

export interface GitHubApiServerOptions {
  tokens?: Record<string, GitHubTokenOwner>;
  repos?: Record<string, GitHubRepoSeed>;
  /** Base of `html_url` links; github.com unless told. */
  htmlUrl?: string;
}

export interface GitHubApiServer {
  /** Base URL without a trailing slash; `${url}/api/v3` serves the same API. */
  url: string;
  state: GitHubApiState;
  close(): Promise<void>;
}

type Json = Record<string, unknown> | unknown[];

interface Reply {
  status: number;
  body: Json;
  headers?: Record<string, string>;
}

interface Call {
  method: string;
  query: URLSearchParams;
  body: unknown;
  user: GitHubTokenOwner;
  /** Absolute base the request used (`http://127.0.0.1:port/api/v3`), for Link headers. */
  base: string;
  pathname: string;
}

const DOCS = 'https://docs.github.com/rest';
const API_PREFIX = '/api/v3';

function problem(status: number, message: string, extra: Record<string, unknown> = {}): Reply {
  return { status, body: { message, documentation_url: DOCS, status: String(status), ...extra } };
}

const notFound = (): Reply => problem(404, 'Not Found');

/** Git's object id for a blob, so shas match what `git hash-object` prints. */
function gitSha(kind: 'blob' | 'tree', content: Buffer): string {
  return createHash('sha1').update(`${kind} ${content.length}\0`).update(content).digest('hex');
}

interface TreeEntry {
  path: string;
  mode: '100644' | '040000';
  type: 'blob' | 'tree';
  sha: string;
  size?: number;
}

interface GitTree {
  sha: string;
  /** Every file and folder, depth first in git's order, as GitHub lists a recursive tree. */
  entries: TreeEntry[];
}

interface FolderNode {
  blobs: Map<string, Buffer>;
  folders: Map<string, FolderNode>;
}

/** Builds the git tree objects of a file map, so tree shas are the ones git itself computes. */
function gitTree(files: Map<string, string | Buffer>): GitTree {
  const root: FolderNode = { blobs: new Map(), folders: new Map() };
  for (const [path, content] of files) {
    const parts = path.split('/').filter(Boolean);
    let node = root;
    for (const part of parts.slice(0, -1)) {
      if (!node.folders.has(part)) node.folders.set(part, { blobs: new Map(), folders: new Map() });
      node = node.folders.get(part) as FolderNode;
    }
    node.blobs.set(parts[parts.length - 1], Buffer.from(content));
  }
  const entries: TreeEntry[] = [];
  const visit = (node: FolderNode, prefix: string): string => {
    // Git sorts a folder as if its name ended with '/'.
    const names = [...[...node.blobs.keys()].map((name) => ({ name, key: name, folder: false })), ...[...node.folders.keys()].map((name) => ({ name, key: `${name}/`, folder: true }))].sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
    const parts: Buffer[] = [];
    for (const { name, folder } of names) {
      const path = prefix + name;
      let sha: string;
      if (folder) {
        const index = entries.push({ path, mode: '040000', type: 'tree', sha: '' }) - 1;
        sha = visit(node.folders.get(name) as FolderNode, `${path}/`);
        entries[index].sha = sha;
      } else {
        const content = node.blobs.get(name) as Buffer;
        sha = gitSha('blob', content);
        entries.push({ path, mode: '100644', type: 'blob', sha, size: content.length });
      }
      parts.push(Buffer.from(`${folder ? '40000' : '100644'} ${name}\0`), Buffer.from(sha, 'hex'));
    }
    return gitSha('tree', Buffer.concat(parts));
  };
  return { sha: visit(root, ''), entries };
}

/** GitHub wraps base64 content at 60 characters and ends it with a newline. */
function githubBase64(content: Buffer): string {
  const encoded = content.toString('base64');
  const lines = encoded.match(/.{1,60}/g) ?? [];
  return lines.map((line) => `${line}\n`).join('');
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function tokenOf(header: string | undefined): string | undefined {
  const match = /^(?:token|bearer)\s+(\S+)$/i.exec(header?.trim() ?? '');
  return match?.[1];
}

/** Starts the server on 127.0.0.1 (random port), seeded from `options`. */
export async function startGitHubApiServer(options: GitHubApiServerOptions = {}): Promise<GitHubApiServer> {
  const htmlUrl = options.htmlUrl ?? 'https://github.com';
  const failures: Array<{ status: number } & GitHubFailure> = [];
  const state: GitHubApiState = {
    tokens: new Map(Object.entries(options.tokens ?? {})),
    repos: new Map(Object.entries(options.repos ?? {})),
    issues: [],
    requests: [],
    treeEntryLimit: Number.POSITIVE_INFINITY,
    failNext(count, status, failure = {}) {
      for (let i = 0; i < count; i += 1) failures.push({ status, ...failure });
    },
  };
  // Ids are handed out on first sight, so repositories and issues added by tests get stable ones too.
  const ids = new Map<string, number>();
  const idFor = (key: string): number => {
    if (!ids.has(key)) ids.set(key, 1_000 + ids.size);
    return ids.get(key) as number;
  };

  const findRepo = (owner: string, name: string, user: GitHubTokenOwner): { fullName: string; repo: GitHubRepoSeed } | undefined => {
    const wanted = `${owner}/${name}`.toLowerCase();
    const fullName = [...state.repos.keys()].find((key) => key.toLowerCase() === wanted);
    if (!fullName) return undefined;
    const repo = state.repos.get(fullName) as GitHubRepoSeed;
    const [repoOwner] = fullName.split('/');
    const visible = !repo.private || repoOwner.toLowerCase() === user.login.toLowerCase() || (repo.collaborators ?? []).some((login) => login.toLowerCase() === user.login.toLowerCase());
    return visible ? { fullName, repo } : undefined;
  };

  const repoJson = (base: string, fullName: string, repo: GitHubRepoSeed) => {
    const [owner, name] = fullName.split('/');
    return {
      id: idFor(`repo:${fullName}`),
      node_id: Buffer.from(`Repository${fullName}`).toString('base64'),
      name,
      full_name: fullName,
      private: repo.private,
      visibility: repo.private ? 'private' : 'public',
      owner: { login: owner, id: idFor(`user:${owner}`), type: 'User' },
      html_url: `${htmlUrl}/${fullName}`,
      url: `${base}/repos/${fullName}`,
      fork: false,
      archived: false,
      disabled: false,
      default_branch: repo.default_branch,
    };
  };

  const issueJson = (base: string, issue: GitHubIssueRecord) => ({
    id: idFor(`issue:${issue.repo}#${issue.number}`),
    node_id: Buffer.from(`Issue${issue.repo}#${issue.number}`).toString('base64'),
    url: `${base}/repos/${issue.repo}/issues/${issue.number}`,
    repository_url: `${base}/repos/${issue.repo}`,
    html_url: `${htmlUrl}/${issue.repo}/issues/${issue.number}`,
    number: issue.number,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    locked: false,
    labels: issue.labels.map((name) => ({ id: idFor(`label:${issue.repo}:${name}`), name, color: 'ededed', default: false })),
    user: { login: issue.author, id: idFor(`user:${issue.author}`), type: 'User' },
    assignees: [],
    comments: 0,
    created_at: issue.createdAt,
    updated_at: issue.createdAt,
    closed_at: null,
  });

  /** Slices a list GitHub's way (`per_page` ≤ 100, default 30) and links the other pages. */
  const paged = <T>(call: Call, items: T[]): { page: T[]; headers: Record<string, string> } => {
    const perPage = Math.min(Math.max(Number(call.query.get('per_page')) || 30, 1), 100);
    const pageNumber = Math.max(Number(call.query.get('page')) || 1, 1);
    const last = Math.max(Math.ceil(items.length / perPage), 1);
    const link = (page: number, rel: string) => {
      const query = new URLSearchParams(call.query);
      query.set('page', String(page));
      query.set('per_page', String(perPage));
      return `<${call.base}${call.pathname}?${query}>; rel="${rel}"`;
    };
    const links = [
      ...(pageNumber > 1 ? [link(pageNumber - 1, 'prev')] : []),
      ...(pageNumber < last ? [link(pageNumber + 1, 'next'), link(last, 'last')] : []),
      ...(pageNumber > 1 ? [link(1, 'first')] : []),
    ];
    return { page: items.slice((pageNumber - 1) * perPage, pageNumber * perPage), headers: links.length ? { link: links.join(', ') } : {} };
  };

  const resolveRef = (repo: GitHubRepoSeed, ref: string | null): boolean => {
    if (ref === null || ref === 'HEAD') return true;
    const branch = ref.replace(/^refs\//, '').replace(/^heads\//, '');
    return branch === repo.default_branch || ref === gitTree(repo.files).sha;
  };

  const contentEntry = (base: string, fullName: string, ref: string, entry: TreeEntry) => {
    const name = entry.path.split('/').pop() as string;
    const url = `${base}/repos/${fullName}/contents/${entry.path}?ref=${ref}`;
    const gitUrl = `${base}/repos/${fullName}/git/${entry.type === 'blob' ? 'blobs' : 'trees'}/${entry.sha}`;
    const htmlLink = `${htmlUrl}/${fullName}/${entry.type === 'blob' ? 'blob' : 'tree'}/${ref}/${entry.path}`;
    return {
      type: entry.type === 'blob' ? 'file' : 'dir',
      size: entry.size ?? 0,
      name,
      path: entry.path,
      sha: entry.sha,
      url,
      git_url: gitUrl,
      html_url: htmlLink,
      download_url: entry.type === 'blob' ? `https://raw.githubusercontent.com/${fullName}/${ref}/${entry.path}` : null,
      _links: { self: url, git: gitUrl, html: htmlLink },
    };
  };

  const fileJson = (call: Call, fullName: string, repo: GitHubRepoSeed, path: string): Reply => {
    const entry = gitTree(repo.files).entries.find((candidate) => candidate.path === path && candidate.type === 'blob') as TreeEntry;
    const content = Buffer.from(repo.files.get(path) as string | Buffer);
    return { status: 200, body: { ...contentEntry(call.base, fullName, repo.default_branch, entry), encoding: 'base64', content: githubBase64(content) } };
  };

  const handlers: Array<{ method: string; pattern: RegExp; handle(call: Call, params: string[]): Reply }> = [
    {
      method: 'GET',
      pattern: /^\/user$/,
      handle: (call) => ({
        status: 200,
        body: { login: call.user.login, id: call.user.id, node_id: Buffer.from(`User${call.user.id}`).toString('base64'), type: 'User', site_admin: false, html_url: `${htmlUrl}/${call.user.login}`, url: `${call.base}/users/${call.user.login}`, name: null, email: null },
      }),
    },
    {
      method: 'GET',
      pattern: /^\/repos\/([^/]+)\/([^/]+)$/,
      handle: (call, [owner, name]) => {
        const found = findRepo(owner, name, call.user);
        return found ? { status: 200, body: repoJson(call.base, found.fullName, found.repo) } : notFound();
      },
    },
    {
      method: 'GET',
      pattern: /^\/repos\/([^/]+)\/([^/]+)\/git\/trees\/(.+)$/,
      handle: (call, [owner, name, ref]) => {
        const found = findRepo(owner, name, call.user);
        if (!found) return notFound();
        if (found.repo.files.size === 0) return problem(409, 'Git Repository is empty.');
        if (!resolveRef(found.repo, ref)) return notFound();
        const tree = gitTree(found.repo.files);
        const recursive = call.query.has('recursive');
        const listed = recursive ? tree.entries : tree.entries.filter((entry) => !entry.path.includes('/'));
        const truncated = listed.length > state.treeEntryLimit;
        const entries = (truncated ? listed.slice(0, state.treeEntryLimit) : listed).map((entry) => ({
          ...entry,
          url: `${call.base}/repos/${found.fullName}/git/${entry.type === 'blob' ? 'blobs' : 'trees'}/${entry.sha}`,
        }));
        return { status: 200, body: { sha: tree.sha, url: `${call.base}/repos/${found.fullName}/git/trees/${tree.sha}`, tree: entries, truncated } };
      },
    },
    {
      method: 'GET',
      pattern: /^\/repos\/([^/]+)\/([^/]+)\/contents(?:\/(.*))?$/,
      handle: (call, [owner, name, rawPath]) => {
        const found = findRepo(owner, name, call.user);
        if (!found) return notFound();
        const ref = call.query.get('ref');
        if (!resolveRef(found.repo, ref)) return problem(404, `No commit found for the ref ${ref}`);
        const path = (rawPath ?? '').replace(/^\/+|\/+$/g, '');
        if (found.repo.files.has(path)) return fileJson(call, found.fullName, found.repo, path);
        const entries = gitTree(found.repo.files).entries;
        const isFolder = path === '' || entries.some((entry) => entry.type === 'tree' && entry.path === path);
        if (!isFolder) return notFound();
        const prefix = path === '' ? '' : `${path}/`;
        const children = entries.filter((entry) => entry.path.startsWith(prefix) && !entry.path.slice(prefix.length).includes('/'));
        return { status: 200, body: children.map((entry) => contentEntry(call.base, found.fullName, found.repo.default_branch, entry)) };
      },
    },
    {
      method: 'GET',
      pattern: /^\/repos\/([^/]+)\/([^/]+)\/readme$/,
      handle: (call, [owner, name]) => {
        const found = findRepo(owner, name, call.user);
        if (!found) return notFound();
        if (!resolveRef(found.repo, call.query.get('ref'))) return problem(404, `No commit found for the ref ${call.query.get('ref')}`);
        const readme = [...found.repo.files.keys()].filter((path) => /^readme(\.[^/]*)?$/i.test(path)).sort((a, b) => Number(!/\.md$/i.test(a)) - Number(!/\.md$/i.test(b)) || a.localeCompare(b))[0];
        return readme ? fileJson(call, found.fullName, found.repo, readme) : notFound();
      },
    },
    {
      method: 'POST',
      pattern: /^\/repos\/([^/]+)\/([^/]+)\/issues$/,
      handle: (call, [owner, name]) => {
        const found = findRepo(owner, name, call.user);
        if (!found) return notFound();
        const input = (call.body ?? {}) as { title?: unknown; body?: unknown; labels?: unknown };
        if (typeof input.title !== 'string' && typeof input.title !== 'number') {
          return problem(422, 'Invalid request.\n\n"title" wasn\'t supplied.');
        }
        const labels = Array.isArray(input.labels) ? input.labels.map((label) => (typeof label === 'object' && label !== null ? String((label as { name?: unknown }).name) : String(label))) : [];
        const issue: GitHubIssueRecord = {
          repo: found.fullName,
          number: Math.max(0, ...state.issues.filter((existing) => existing.repo === found.fullName).map((existing) => existing.number)) + 1,
          title: String(input.title),
          body: typeof input.body === 'string' ? input.body : null,
          labels,
          state: 'open',
          author: call.user.login,
          createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        };
        state.issues.push(issue);
        return { status: 201, body: issueJson(call.base, issue), headers: { location: `${call.base}/repos/${found.fullName}/issues/${issue.number}` } };
      },
    },
    {
      method: 'GET',
      pattern: /^\/repos\/([^/]+)\/([^/]+)\/issues$/,
      handle: (call, [owner, name]) => {
        const found = findRepo(owner, name, call.user);
        if (!found) return notFound();
        const wanted = call.query.get('state') ?? 'open';
        const labels = (call.query.get('labels') ?? '').split(',').filter(Boolean);
        const matching = state.issues
          .filter((issue) => issue.repo === found.fullName && (wanted === 'all' || issue.state === wanted) && labels.every((label) => issue.labels.includes(label)))
          .reverse();
        const { page, headers } = paged(call, matching);
        return { status: 200, body: page.map((issue) => issueJson(call.base, issue)), headers };
      },
    },
    {
      method: 'GET',
      pattern: /^\/search\/issues$/,
      handle: (call) => {
        const q = call.query.get('q');
        if (!q) return problem(422, 'Validation Failed', { errors: [{ resource: 'Search', field: 'q', code: 'missing' }] });
        const matching = state.issues.filter((issue) => matchesSearch(q, issue) && Boolean(findRepo(...(issue.repo.split('/') as [string, string]), call.user))).reverse();
        const { page, headers } = paged(call, matching);
        return { status: 200, body: { total_count: matching.length, incomplete_results: false, items: page.map((issue) => ({ ...issueJson(call.base, issue), score: 1 })) }, headers };
      },
    },
  ];

  const route = async (request: IncomingMessage): Promise<Reply> => {
    state.requests.push({ method: request.method ?? 'GET', path: request.url ?? '/', authorization: request.headers.authorization });
    const failure = failures.shift();
    if (failure) {
      const retryAfter = failure.retryAfter ?? (failure.status === 429 ? 1 : undefined);
      const reply = problem(failure.status, failure.message ?? (failure.status === 429 ? 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' : (STATUS_CODES[failure.status] ?? 'Error')));
      return { ...reply, headers: retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) } };
    }
    const url = new URL(request.url ?? '/', 'http://github.invalid');
    const prefixed = url.pathname === API_PREFIX || url.pathname.startsWith(`${API_PREFIX}/`);
    const pathname = (prefixed ? url.pathname.slice(API_PREFIX.length) : url.pathname).replace(/\/+$/, '') || '/';
    const header = request.headers.authorization;
    const token = tokenOf(header);
    if (header === undefined) return problem(401, 'Requires authentication');
    const user = token === undefined ? undefined : state.tokens.get(token);
    if (!user) return problem(401, 'Bad credentials');
    const scopes: Record<string, string> = user.scopes ? { 'x-oauth-scopes': user.scopes.join(', ') } : {};
    const method = request.method ?? 'GET';
    const text = method === 'GET' || method === 'HEAD' ? '' : await readBody(request);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return { ...problem(400, 'Problems parsing JSON'), headers: scopes };
    }
    for (const handler of handlers) {
      const match = handler.method === method ? handler.pattern.exec(pathname) : null;
      if (!match) continue;
      // Path parameters arrive percent-encoded (Octokit sends `src%2Findex.ts`).
      const params = match.slice(1).map((part) => (part === undefined ? '' : decodeURIComponent(part)));
      const base = `http://${request.headers.host}${prefixed ? API_PREFIX : ''}`;
      const reply = handler.handle({ method, query: url.searchParams, body, user, base, pathname }, params);
      return { ...reply, headers: { ...scopes, ...reply.headers } };
    }
    return { ...notFound(), headers: scopes };
  };

  const send = (response: ServerResponse, reply: Reply) => {
    response.writeHead(reply.status, {
      'content-type': 'application/json; charset=utf-8',
      'x-github-media-type': 'github.v3; format=json',
      'x-github-request-id': randomUUID().toUpperCase(),
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-resource': 'core',
      ...reply.headers,
    });
    response.end(JSON.stringify(reply.body));
  };

  const server = createServer((request, response) => {
    route(request).then(
      (reply) => send(response, reply),
      () => send(response, problem(500, 'Server Error')),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The part of GitHub's issue search syntax the app relies on: `repo:`, `is:`/`state:`, `label:`,
 * `in:title|body`, quoted phrases and bare words (all words must match, case-insensitively).
 */
function matchesSearch(q: string, issue: GitHubIssueRecord): boolean {
  const tokens = q.match(/"[^"]*"|\S+/g) ?? [];
  const where = tokens.find((token) => /^in:/i.test(token))?.slice(3).toLowerCase();
  const haystack = [where !== 'body' ? issue.title : '', where !== 'title' ? (issue.body ?? '') : ''].join('\n').toLowerCase();
  return tokens.every((token) => {
    const qualifier = /^(-?)([a-z]+):(.+)$/i.exec(token);
    if (!qualifier || token.startsWith('"')) return haystack.includes(token.replace(/^"|"$/g, '').toLowerCase());
    const [, negated, key, rawValue] = qualifier;
    const value = rawValue.replace(/^"|"$/g, '').toLowerCase();
    const result = (() => {
      switch (key.toLowerCase()) {
        case 'repo':
          return issue.repo.toLowerCase() === value;
        case 'is':
        case 'state':
          return value === 'issue' || value === issue.state;
        case 'type':
          return value === 'issue';
        case 'label':
          return issue.labels.some((label) => label.toLowerCase() === value);
        case 'author':
          return issue.author.toLowerCase() === value;
        case 'in':
          return true;
        default:
          return haystack.includes(token.toLowerCase());
      }
    })();
    return negated ? !result : result;
  });
}

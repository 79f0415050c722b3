import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGitHubApiServer, type GitHubApiServer } from '../../support/providers/github-api-server.ts';

// The real @octokit/rest client against the loopback GitHub API: if these pass, the app's GitHub
// adapter can be tested end to end without api.github.com.

const TOKEN = 'ghp_octocat_token';
const OTHER_TOKEN = 'ghp_other_token';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10, 0x80]);

// Expected shas come from `git write-tree` / `git ls-tree -r -t` on the same four files.
const ROOT_TREE_SHA = '5b84c5a3717b3020f865cc0d879474e017c92007';
const SRC_TREE_SHA = '4965c8fab1c105146f2de34e5d4ffed1ead1af88';
const HELLO_BLOB_SHA = 'ce013625030ba8dba906f756967f9e9ca394464a';

let github: GitHubApiServer;

// Octokit logs every failed request with console.error; the failures here are the point of the tests.
const quiet = { debug: () => {}, info: () => {}, warn: console.warn, error: () => {} };

/** An application's client: `token` null for an anonymous one. */
function client(token: string | null = TOKEN, baseUrl = github.url): Octokit {
  return new Octokit({ ...(token === null ? {} : { auth: token }), baseUrl, log: quiet, request: { retries: 0 } });
}

beforeAll(async () => {
  github = await startGitHubApiServer({
    tokens: {
      [TOKEN]: { login: 'octocat', id: 583231, scopes: ['repo', 'read:org'] },
      [OTHER_TOKEN]: { login: 'hubot', id: 480938 },
    },
    repos: {
      'octocat/demo': {
        default_branch: 'main',
        private: false,
        files: new Map<string, string | Buffer>([
          ['README.md', '# Demo\n'],
          ['src/index.ts', 'export const a = 1;\n'],
          ['src/lib/util.ts', 'export const b = 2;\n'],
          ['docs/guide.md', 'hello\n'],
        ]),
      },
      'octocat/secret': { default_branch: 'trunk', private: true, files: new Map<string, string | Buffer>([['readme.txt', 'private\n'], ['logo.png', PNG]]) },
    },
  });
});

afterAll(async () => {
  await github.close();
});

beforeEach(() => {
  github.state.issues.length = 0;
  github.state.requests.length = 0;
});

describe('authentication', () => {
  it('answers users.getAuthenticated with the token owner and its scopes header', async () => {
    const { data, headers } = await client().rest.users.getAuthenticated();

    expect(data).toMatchObject({ login: 'octocat', id: 583231, type: 'User' });
    expect(headers['x-oauth-scopes']).toBe('repo, read:org');
    expect(github.state.requests).toEqual([{ method: 'GET', path: '/user', authorization: `token ${TOKEN}` }]);
  });

  it('serves the GitHub Enterprise Server base URL too', async () => {
    const { data } = await client(OTHER_TOKEN, `${github.url}/api/v3`).rest.users.getAuthenticated();

    expect(data.login).toBe('hubot');
    expect(github.state.requests[0]).toMatchObject({ path: '/api/v3/user', authorization: `token ${OTHER_TOKEN}` });
  });

  it('accepts a Bearer authorization header', async () => {
    const { data } = await client(null).request('GET /user', { headers: { authorization: `Bearer ${OTHER_TOKEN}` } });

    expect(data.login).toBe('hubot');
  });

  it('refuses an unknown or revoked token with 401 Bad credentials', async () => {
    github.state.tokens.set('ghp_short_lived', { login: 'octocat', id: 583231 });
    await expect(client('ghp_short_lived').rest.users.getAuthenticated()).resolves.toBeDefined();
    github.state.tokens.delete('ghp_short_lived');

    const error = await client('ghp_short_lived').rest.users.getAuthenticated().catch((caught: unknown) => caught);

    // Octokit's RequestError (its `name` is HttpError), carrying GitHub's JSON body.
    expect(error).toMatchObject({ name: 'HttpError', status: 401, response: { data: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' } } });
  });

  it('refuses a request without a token with 401 Requires authentication', async () => {
    await expect(client(null).rest.repos.get({ owner: 'octocat', repo: 'demo' })).rejects.toMatchObject({ status: 401, response: { data: { message: 'Requires authentication' } } });
  });
});

describe('repositories and contents', () => {
  it('gets a repository, and hides a private one from other users behind 404', async () => {
    const { data } = await client().rest.repos.get({ owner: 'octocat', repo: 'demo' });
    expect(data).toMatchObject({ name: 'demo', full_name: 'octocat/demo', private: false, default_branch: 'main', owner: { login: 'octocat' } });

    await expect(client(OTHER_TOKEN).rest.repos.get({ owner: 'octocat', repo: 'secret' })).rejects.toMatchObject({ status: 404, response: { data: { message: 'Not Found' } } });
    await expect(client().rest.repos.get({ owner: 'octocat', repo: 'missing' })).rejects.toMatchObject({ status: 404 });
  });

  it('lists a recursive tree with the shas git computes', async () => {
    const { data } = await client().rest.git.getTree({ owner: 'octocat', repo: 'demo', tree_sha: 'main', recursive: '1' });

    expect(data.sha).toBe(ROOT_TREE_SHA);
    expect(data.truncated).toBe(false);
    expect(data.tree.map((entry) => `${entry.type} ${entry.path}`)).toEqual(['blob README.md', 'tree docs', 'blob docs/guide.md', 'tree src', 'blob src/index.ts', 'tree src/lib', 'blob src/lib/util.ts']);
    expect(data.tree.find((entry) => entry.path === 'src')?.sha).toBe(SRC_TREE_SHA);
    expect(data.tree.find((entry) => entry.path === 'docs/guide.md')).toMatchObject({ mode: '100644', type: 'blob', sha: HELLO_BLOB_SHA, size: 6 });
  });

  it('resolves HEAD, lists only the top level without recursive, and truncates past the limit', async () => {
    const top = await client().rest.git.getTree({ owner: 'octocat', repo: 'demo', tree_sha: 'HEAD' });
    expect(top.data.tree.map((entry) => entry.path)).toEqual(['README.md', 'docs', 'src']);

    github.state.treeEntryLimit = 2;
    try {
      const limited = await client().rest.git.getTree({ owner: 'octocat', repo: 'demo', tree_sha: 'main', recursive: '1' });
      expect(limited.data).toMatchObject({ truncated: true, tree: [{ path: 'README.md' }, { path: 'docs' }] });
    } finally {
      github.state.treeEntryLimit = Number.POSITIVE_INFINITY;
    }

    await expect(client().rest.git.getTree({ owner: 'octocat', repo: 'demo', tree_sha: 'no-such-branch' })).rejects.toMatchObject({ status: 404 });
  });

  it('returns a file as base64 wrapped at 60 characters, as GitHub does', async () => {
    const long = 'x'.repeat(200);
    github.state.repos.get('octocat/demo')?.files.set('src/long.txt', long);
    try {
      const { data } = await client().rest.repos.getContent({ owner: 'octocat', repo: 'demo', path: 'src/long.txt', ref: 'main' });

      if (Array.isArray(data) || data.type !== 'file') throw new Error('expected a file');
      expect(data).toMatchObject({ name: 'long.txt', path: 'src/long.txt', encoding: 'base64', size: 200 });
      expect(data.content.split('\n').slice(0, -1).every((line) => line.length <= 60)).toBe(true);
      expect(data.content.endsWith('\n')).toBe(true);
      expect(Buffer.from(data.content, 'base64').toString('utf8')).toBe(long);
    } finally {
      github.state.repos.get('octocat/demo')?.files.delete('src/long.txt');
    }
  });

  it('returns binary files byte for byte to a collaborator of a private repository', async () => {
    const secret = github.state.repos.get('octocat/secret');
    if (!secret) throw new Error('seeded repository missing');
    secret.collaborators = ['hubot'];
    try {
      const { data } = await client(OTHER_TOKEN).rest.repos.getContent({ owner: 'octocat', repo: 'secret', path: 'logo.png' });

      if (Array.isArray(data) || data.type !== 'file') throw new Error('expected a file');
      expect(Buffer.from(data.content, 'base64')).toEqual(PNG);
    } finally {
      secret.collaborators = undefined;
    }
  });

  it('lists a directory, and answers 404 for a missing path or ref', async () => {
    const { data } = await client().rest.repos.getContent({ owner: 'octocat', repo: 'demo', path: 'src' });

    expect(Array.isArray(data) ? data.map((entry) => [entry.type, entry.path]) : data).toEqual([
      ['file', 'src/index.ts'],
      ['dir', 'src/lib'],
    ]);
    await expect(client().rest.repos.getContent({ owner: 'octocat', repo: 'demo', path: 'nope.md' })).rejects.toMatchObject({ status: 404 });
    await expect(client().rest.repos.getContent({ owner: 'octocat', repo: 'demo', path: 'README.md', ref: 'gone' })).rejects.toMatchObject({ status: 404, message: expect.stringContaining('No commit found for the ref gone') });
  });

  it('finds the README whatever its case', async () => {
    const demo = await client().rest.repos.getReadme({ owner: 'octocat', repo: 'demo' });
    const secret = await client().rest.repos.getReadme({ owner: 'octocat', repo: 'secret' });

    expect(Buffer.from(demo.data.content, 'base64').toString('utf8')).toBe('# Demo\n');
    expect(secret.data.path).toBe('readme.txt');
  });
});

describe('issues and search', () => {
  it('creates an issue, answering 201 and recording it', async () => {
    const { status, data } = await client().rest.issues.create({ owner: 'octocat', repo: 'demo', title: 'Finding: open port', body: 'details', labels: ['security'] });

    expect(status).toBe(201);
    expect(data).toMatchObject({ number: 1, title: 'Finding: open port', body: 'details', state: 'open', html_url: 'https://github.com/octocat/demo/issues/1', labels: [{ name: 'security' }] });
    expect(github.state.issues).toEqual([expect.objectContaining({ repo: 'octocat/demo', number: 1, title: 'Finding: open port', body: 'details', labels: ['security'], author: 'octocat' })]);
  });

  it('rejects an issue without a title with 422', async () => {
    await expect(client().request('POST /repos/octocat/demo/issues', { body: 'no title' })).rejects.toMatchObject({ status: 422 });
  });

  it('pages issue lists through Link headers, newest first', async () => {
    for (let n = 1; n <= 5; n += 1) await client().rest.issues.create({ owner: 'octocat', repo: 'demo', title: `Issue ${n}` });

    const first = await client().rest.issues.listForRepo({ owner: 'octocat', repo: 'demo', state: 'all', per_page: 2 });
    const all = await client().paginate(client().rest.issues.listForRepo, { owner: 'octocat', repo: 'demo', state: 'all', per_page: 2 });

    expect(first.headers.link).toContain('rel="next"');
    expect(all.map((issue) => issue.number)).toEqual([5, 4, 3, 2, 1]);

    const enterprise = await client(TOKEN, `${github.url}/api/v3`).rest.issues.listForRepo({ owner: 'octocat', repo: 'demo', state: 'all', per_page: 2, page: 2 });
    expect(enterprise.data.map((issue) => issue.number)).toEqual([3, 2]);
    expect(enterprise.headers.link).toContain(`<${github.url}/api/v3/repos/octocat/demo/issues?state=all&per_page=2&page=3>; rel="next"`);
  });

  it('finds an already-created issue by a marker in its body', async () => {
    await client().rest.issues.create({ owner: 'octocat', repo: 'demo', title: 'Other', body: 'unrelated' });
    await client().rest.issues.create({ owner: 'octocat', repo: 'demo', title: 'Tracked', body: 'text\n<!-- gatehouse:finding:abc123 -->' });
    await client().rest.issues.create({ owner: 'octocat', repo: 'secret', title: 'Same marker elsewhere', body: '<!-- gatehouse:finding:abc123 -->' });

    const { data } = await client().rest.search.issuesAndPullRequests({ q: 'repo:octocat/demo is:issue in:body "gatehouse:finding:abc123"' });

    expect(data).toMatchObject({ total_count: 1, incomplete_results: false });
    expect(data.items.map((item) => item.title)).toEqual(['Tracked']);
  });
});

describe('failures', () => {
  it('fails the next requests with an injected status, then recovers', async () => {
    github.state.failNext(2, 502);

    await expect(client().rest.users.getAuthenticated()).rejects.toMatchObject({ status: 502 });
    await expect(client().rest.users.getAuthenticated()).rejects.toMatchObject({ status: 502 });
    await expect(client().rest.users.getAuthenticated()).resolves.toMatchObject({ status: 200 });
  });

  it('rate limits with 429 and retry-after', async () => {
    github.state.failNext(1, 429, { retryAfter: 7 });

    const error = await client().rest.repos.get({ owner: 'octocat', repo: 'demo' }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ name: 'HttpError', status: 429, response: { headers: { 'retry-after': '7' } } });
  });

  it('answers anything else with 404 Not Found JSON', async () => {
    await expect(client().request('GET /orgs/{org}/teams', { org: 'octocat' })).rejects.toMatchObject({ status: 404, response: { data: { message: 'Not Found' } } });
  });
});

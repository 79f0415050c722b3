import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';

const reference = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
const headings = reference.split('\n').filter((line) => line.startsWith('### '));

describe('docs/api.md', () => {
  it('has a section for every versioned route of the route table', () => {
    const documented = (method: string, path: string) => headings.some((heading) => new RegExp(`\\b${method} ${path.replace(/[{}?.]/g, '\\$&')}(?=$|[\\s,?])`).test(heading));

    const missing = routes.filter((route) => !route.unversioned && !documented(route.method, route.path)).map((route) => `${route.method} ${route.path}`);

    expect(missing).toEqual([]);
  });

  it('keeps the section the errors for an unknown agent link to', () => {
    expect(reference.split('\n')).toContain('## Agents');
  });
});

describe('docs/api.md problem types', () => {
  it('names every problem code the service can answer with', async () => {
    const { PROBLEM_TYPES } = await import('#shared/http/problem-catalog');

    const missing = PROBLEM_TYPES.map((problem) => problem.code).filter((code) => !reference.includes(`\`${code}\``));

    expect(missing).toEqual([]);
  });
});

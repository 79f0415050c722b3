import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConflictError, InvalidRequestError, NotFoundError } from '#shared/domain/errors';
import { mapErrorToResponse } from '#shared/http/error-mapper';
import { problemResponse, problemTypeUri } from '#shared/http/problem';
import { describeProblemType, findProblemType, listProblemTypes, PROBLEM_TYPES } from '#shared/http/problem-catalog';

const SOURCE_ROOTS = ['functions', 'shared', 'lib', 'bin'];

/** Codes raised in the code base that never reach an HTTP answer, and why. */
const NOT_ANSWERED = new Map([['api_key_not_found', 'only the keys CLI (bin/keys.ts) revokes keys by id']]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Every problem code the source can answer with, read the way the code writes them: the code of
 * a problemResponse call or a gateway response, the last argument of an InvalidRequestError, the
 * first of a ConflictError, the resource of a NotFoundError, and the codes of the error classes.
 */
function codesInSource(): Map<string, string> {
  const found = new Map<string, string>();
  const patterns: [RegExp, (match: RegExpMatchArray) => string[]][] = [
    [/problemResponse\(\{[^}]*?code: ([^,]+),/g, (match) => [...match[1].matchAll(/'([a-z_]+)'/g)].map((literal) => literal[1])],
    [/\{ type: ResponseType\.[A-Z_0-9]+,[^}]*code: '([a-z_]+)'/g, (match) => [match[1]]],
    [/new ConflictError\('([a-z_]+)'/g, (match) => [match[1]]],
    [/new NotFoundError\('([a-z_]+)'/g, (match) => [`${match[1]}_not_found`]],
    [/super\('([a-z_]+)', /g, (match) => [match[1]]],
    [/code = '([a-z_]+)'\)/g, (match) => [match[1]]],
  ];
  for (const file of SOURCE_ROOTS.flatMap(sourceFiles)) {
    const text = readFileSync(file, 'utf8');
    for (const [pattern, codesOf] of patterns) for (const match of text.matchAll(pattern)) for (const code of codesOf(match)) found.set(code, file);
    for (const match of text.matchAll(/new InvalidRequestError\(/g)) {
      const code = /,\s*'([a-z_]+)',?\s*$/.exec(callText(text, match.index + match[0].length))?.[1];
      if (code) found.set(code, file);
    }
  }
  return found;
}

/** The text of a call's arguments from just after its `(` to its matching `)`, skipping string literals. */
function callText(text: string, start: number): string {
  let depth = 1;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (char === "'" || char === '"' || char === '`') {
      for (index++; index < text.length && text[index] !== char; index++) if (text[index] === '\\') index++;
    } else if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char) && --depth === 0) return text.slice(start, index);
  }
  return text.slice(start);
}

describe('the problem-type catalogue', () => {
  it('documents every problem code the code base answers with', () => {
    const used = codesInSource();
    const missing = [...used].filter(([code]) => !findProblemType(code) && !NOT_ANSWERED.has(code)).map(([code, file]) => `${code} (${file})`);

    // The scan itself must see the codes, or this test could not fail.
    expect(used.size).toBeGreaterThan(40);
    for (const code of ['validation_error', 'unknown_agent', 'task_not_found', 'approval_already_resolved', 'route_not_found', 'not_acceptable', 'request_rejected', 'internal_error', 'unauthorized', 'headers_too_large']) expect(used.has(code), code).toBe(true);
    expect(missing).toEqual([]);
  });

  it('documents only codes the code base answers with, each once', () => {
    const used = codesInSource();
    const codes = PROBLEM_TYPES.map((problem) => problem.code);

    expect(codes.filter((code) => !used.has(code))).toEqual([]);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('gives each type a path-absolute URI under /v1/problems with the hyphenated code, the title and status its answers carry', () => {
    for (const problem of listProblemTypes()) {
      expect(problem.type).toBe(`/v1/problems/${problem.code.replace(/_/g, '-')}`);
      expect(problem.description.length, problem.code).toBeGreaterThan(20);
      if (problem.status === null) continue;
      const answer = JSON.parse(problemResponse({ status: problem.status, code: problem.code, detail: 'x' }).body);
      expect({ type: problem.type, title: problem.title, status: problem.status }).toEqual({ type: answer.type, title: answer.title, status: answer.status });
    }
  });

  it('points the `type` of a mapped domain error at its own documentation', () => {
    const errors = [new InvalidRequestError('x'), new NotFoundError('task', 'tsk_1'), new ConflictError('scan_not_cancellable', 'x'), new InvalidRequestError('x', [], 'unknown_agent')];

    for (const error of errors) {
      const answer = JSON.parse(mapErrorToResponse(error).body);
      expect(describeProblemType(answer.type.split('/').at(-1))).toMatchObject({ type: answer.type, code: answer.code, status: answer.status, title: answer.title });
    }
  });

  it('finds a type by its hyphenated or underscored code, and 404s an unknown one', () => {
    expect(describeProblemType('rate-limited')).toEqual(describeProblemType('rate_limited'));
    expect(problemTypeUri('rate_limited')).toBe('/v1/problems/rate-limited');
    expect(() => describeProblemType('no-such-problem')).toThrow(expect.objectContaining({ code: 'problem_type_not_found' }));
  });
});

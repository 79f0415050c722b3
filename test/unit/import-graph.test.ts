import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering the house rules promise, read from the source: the domain core and the scan logic
 * import no AWS SDK and no adapter, and scans depend on the domain, never the other way round.
 * Checked over everything a module reaches (not only its own imports), so a detour through a
 * third module cannot reopen a circle or pull an adapter into the core.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const AWS_SDK = /^(@aws-sdk\/|aws-sdk$|@smithy\/)/;

/** Every module specifier in a file: static and side-effect imports, re-exports, import() and require(). */
function specifiersOf(source: string): string[] {
  const patterns = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]));
}

/** A project file's repository path for a specifier (#shared/* aliases and relative paths), or the bare package name. */
function target(specifier: string, fromFile: string): string {
  const aliased = /^#(shared|functions|lib)\/(.+)$/.exec(specifier);
  if (aliased) return `${aliased[1]}/${aliased[2]}.ts`;
  if (!specifier.startsWith('.')) return specifier;
  const path = resolve(ROOT, dirname(fromFile), specifier);
  const file = [path, `${path}.ts`, join(path, 'index.ts')].find((candidate) => existsSync(candidate) && candidate.endsWith('.ts')) ?? path;
  return relative(ROOT, file);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const importsCache = new Map<string, string[]>();
function importsOf(file: string): string[] {
  let imports = importsCache.get(file);
  if (!imports) {
    imports = specifiersOf(readFileSync(join(ROOT, file), 'utf8')).map((specifier) => target(specifier, file));
    importsCache.set(file, imports);
  }
  return imports;
}

/** Each import `file` reaches, with the chain of files that leads to it. */
function reachable(file: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[file, [file]]]);
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    for (const imported of importsOf(current)) {
      if (chains.has(imported)) continue;
      chains.set(imported, [...(chains.get(current) as string[]), imported]);
      // Only project files are followed; packages are leaves.
      if (imported.endsWith('.ts') && existsSync(join(ROOT, imported))) queue.push(imported);
    }
  }
  chains.delete(file);
  return chains;
}

/** The chains from any file under `dirs` to an import `forbidden` matches, one per offending import. */
function violations(dirs: string[], forbidden: (imported: string) => boolean): string[] {
  return dirs.flatMap(sourceFiles).flatMap((file) =>
    [...reachable(file)].filter(([imported]) => forbidden(imported)).map(([, chain]) => chain.join(' -> ')),
  );
}

describe('import graph of the core', () => {
  it('reads imports of every form, aliased and relative', () => {
    const source = [
      "import { a } from '#shared/domain/errors';",
      "import type {\n  B,\n} from '../scans/model';",
      "export * from '#shared/scans/scan';",
      "import 'node:fs';",
      "const c = await import('@aws-sdk/client-s3');",
    ].join('\n');

    const specifiers = specifiersOf(source);

    expect(specifiers).toEqual(['#shared/domain/errors', '../scans/model', '#shared/scans/scan', 'node:fs', '@aws-sdk/client-s3']);
    expect(specifiers.map((specifier) => target(specifier, 'shared/domain/x.ts'))).toEqual([
      'shared/domain/errors.ts',
      'shared/scans/model.ts',
      'shared/scans/scan.ts',
      'node:fs',
      '@aws-sdk/client-s3',
    ]);
  });

  it('sees the dependencies that do exist: scans on the domain, the crawl on its HTML parser', () => {
    expect([...reachable('shared/scans/scan.ts').keys()]).toContain('shared/domain/errors.ts');
    expect([...reachable('shared/scans/crawler/crawl.ts').keys()]).toContain('parse5');
  });

  it('keeps the domain free of scans: the dependency runs from scans to the domain only', () => {
    expect(violations(['shared/domain'], (imported) => imported.startsWith('shared/scans/'))).toEqual([]);
  });

  it('keeps the AWS SDK and the adapters out of the domain, the scan logic and the preflight decisions', () => {
    expect(violations(['shared/domain', 'shared/scans', 'shared/preflight'], (imported) => AWS_SDK.test(imported))).toEqual([]);
    expect(violations(['shared/domain', 'shared/scans', 'shared/preflight'], (imported) => imported.startsWith('shared/adapters/'))).toEqual([]);
  });
});

import { join } from 'node:path';

/**
 * Files some bundles need beside them at run time, because a dependency loads them by path or by
 * its package's `imports` map rather than by an import esbuild can follow:
 * - jsdom (the detector worker) starts `xhr-sync-worker.js` from next to itself;
 * - pdfkit (the scan export) loads its standard fonts with `createRequire(import.meta.url)` and
 *   `#standard-fonts/<name>`, which Node resolves through the `imports` of the package.json
 *   nearest the bundle; so the fonts are copied beside it with a package.json that maps them.
 * Shell commands for `NodejsFunction`'s `afterBundling` hook, run with the bundle's directory.
 */
const COMPANIONS: Readonly<Record<string, (repoRoot: string, outputDir: string) => string[]>> = {
  'functions/workers/run-detector.ts': (repoRoot, outputDir) => [`cp "${join(repoRoot, 'node_modules/jsdom/lib/jsdom/living/xhr/xhr-sync-worker.js')}" "${outputDir}/xhr-sync-worker.js"`],
  'functions/scans/export-scan.ts': (repoRoot, outputDir) => [
    `cp -R "${join(repoRoot, 'node_modules/pdfkit/js/standard-fonts')}" "${outputDir}/standard-fonts"`,
    `printf '%s' '${JSON.stringify(PDFKIT_FONT_IMPORTS)}' > "${outputDir}/package.json"`,
  ],
};

/** The package.json beside the export bundle: pdfkit's own `imports` entry, pointed at the copy. */
export const PDFKIT_FONT_IMPORTS = { private: true, imports: { '#standard-fonts/*': './standard-fonts/*.cjs' } } as const;

/** The commands that put a handler's companion files beside its bundle (none for most handlers). */
export function companionCommands(handlerFile: string, repoRoot: string, outputDir: string): string[] {
  return COMPANIONS[handlerFile]?.(repoRoot, outputDir) ?? [];
}

export function hasCompanions(handlerFile: string): boolean {
  return handlerFile in COMPANIONS;
}

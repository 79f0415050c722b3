import { copyFileSync, cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Files some bundles need beside them at run time, because a dependency loads them by path or by
 * its package's `imports` map rather than by an import esbuild can follow:
 * - jsdom (the detector worker) starts `xhr-sync-worker.js` from next to itself;
 * - pdfkit (the scan export) loads its standard fonts with `createRequire(import.meta.url)` and
 *   `#standard-fonts/<name>`, which Node resolves through the `imports` of the package.json
 *   nearest the bundle; so the fonts are copied beside it with a package.json that maps them.
 * "Beside" is the directory of the file the dependency is bundled into: `index.mjs` or one of its
 * chunks, which lib/bundling/esbuild-options.ts puts in the same directory.
 */
const COMPANIONS: Readonly<Record<string, (repoRoot: string, outputDir: string) => void>> = {
  'functions/workers/run-detector.ts': (repoRoot, outputDir) => {
    copyFileSync(join(repoRoot, 'node_modules/jsdom/lib/jsdom/living/xhr/xhr-sync-worker.js'), join(outputDir, 'xhr-sync-worker.js'));
  },
  'functions/scans/export-scan.ts': (repoRoot, outputDir) => {
    cpSync(join(repoRoot, 'node_modules/pdfkit/js/standard-fonts'), join(outputDir, 'standard-fonts'), { recursive: true });
    writeFileSync(join(outputDir, 'package.json'), JSON.stringify(PDFKIT_FONT_IMPORTS));
  },
};

/** The package.json beside the export bundle: pdfkit's own `imports` entry, pointed at the copy. */
export const PDFKIT_FONT_IMPORTS = { private: true, imports: { '#standard-fonts/*': './standard-fonts/*.cjs' } } as const;

/** Puts a handler's companion files into its bundle's directory (nothing for most handlers). */
export function writeCompanions(handlerFile: string, repoRoot: string, outputDir: string): void {
  COMPANIONS[handlerFile]?.(repoRoot, outputDir);
}

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
 * - playwright-core (the detector worker's browser driver) cannot be bundled at all: it finds its
 *   own files through `__dirname`. It stays external and is installed whole in the bundle's
 *   node_modules, where the ESM bundle's `import` resolves it.
 */
const COMPANIONS: Readonly<Record<string, (repoRoot: string, outputDir: string) => void>> = {
  'functions/workers/run-detector.ts': (repoRoot, outputDir) => {
    copyFileSync(join(repoRoot, 'node_modules/jsdom/lib/jsdom/living/xhr/xhr-sync-worker.js'), join(outputDir, 'xhr-sync-worker.js'));
    for (const name of installedPackages('functions/workers/run-detector.ts')) cpSync(join(repoRoot, 'node_modules', name), join(outputDir, 'node_modules', name), { recursive: true });
  },
  'functions/scans/export-scan.ts': (repoRoot, outputDir) => {
    cpSync(join(repoRoot, 'node_modules/pdfkit/js/standard-fonts'), join(outputDir, 'standard-fonts'), { recursive: true });
    writeFileSync(join(outputDir, 'package.json'), JSON.stringify(PDFKIT_FONT_IMPORTS));
  },
};

/** The package.json beside the export bundle: pdfkit's own `imports` entry, pointed at the copy. */
export const PDFKIT_FONT_IMPORTS = { private: true, imports: { '#standard-fonts/*': './standard-fonts/*.cjs' } } as const;

/** Packages left out of a handler's bundle (esbuild `external`) and installed beside it instead. */
const INSTALLED_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  'functions/workers/run-detector.ts': ['playwright-core'],
};

export function installedPackages(handlerFile: string): string[] {
  return [...(INSTALLED_PACKAGES[handlerFile] ?? [])];
}

/** Puts a handler's companion files into its bundle's directory (nothing for most handlers). */
export function writeCompanions(handlerFile: string, repoRoot: string, outputDir: string): void {
  COMPANIONS[handlerFile]?.(repoRoot, outputDir);
}

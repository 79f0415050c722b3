import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installedPackages, PDFKIT_FONT_IMPORTS, writeCompanions } from '#lib/bundling/companions';
import { repositoryRoot as REPO_ROOT } from '#lib/local/handler-loader';

describe('companion files of function bundles', () => {
  let outputDir: string;
  beforeEach(() => {
    outputDir = mkdtempSync(join(tmpdir(), 'gatehouse-companions-'));
  });
  afterEach(() => {
    rmSync(outputDir, { recursive: true, force: true });
  });

  it("puts pdfkit's standard fonts beside the export bundle, with the package.json that maps #standard-fonts to them", () => {
    writeCompanions('functions/scans/export-scan.ts', REPO_ROOT, outputDir);

    expect(JSON.parse(readFileSync(join(outputDir, 'package.json'), 'utf8'))).toEqual(PDFKIT_FONT_IMPORTS);
    expect(readdirSync(join(outputDir, 'standard-fonts'))).toContain('Helvetica.cjs');
  });

  it("puts jsdom's synchronous XHR worker and an installed playwright-core beside the detector worker's bundle", () => {
    writeCompanions('functions/workers/run-detector.ts', REPO_ROOT, outputDir);

    expect(readdirSync(outputDir).sort()).toEqual(['node_modules', 'xhr-sync-worker.js']);
    expect(readdirSync(join(outputDir, 'node_modules'))).toEqual(['playwright-core']);
    expect(installedPackages('functions/workers/run-detector.ts')).toEqual(['playwright-core']);
    expect(installedPackages('functions/tasks/get-task.ts')).toEqual([]);
  });

  it('writes nothing for a handler without companions', () => {
    writeCompanions('functions/tasks/get-task.ts', REPO_ROOT, outputDir);

    expect(readdirSync(outputDir)).toEqual([]);
    expect(existsSync(join(outputDir, 'package.json'))).toBe(false);
  });
});

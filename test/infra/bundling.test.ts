import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_ENTRY_FILE, ESM_REQUIRE_BANNER } from '#lib/bundling/esbuild-options';
import { synthGatehouse } from './synth';
import { scanDetectorWorker } from '#shared/config/topology';
import { consumerId, DECLARED_FUNCTION_COUNT, idAtPath, serviceFunctions, type CfnResource } from './template-queries';

const run = promisify(execFile);

/** Lambda's Node.js runtime provides the `awslambda` global that response streaming uses. */
const AWSLAMBDA_STUB = 'globalThis.awslambda = { streamifyResponse: (f) => f, HttpResponseStream: { from: (s) => s } };';

/** Bytes of every file under `dir`: what Lambda counts against its unzipped size limit. */
function directoryBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((total, entry) => total + (entry.isDirectory() ? directoryBytes(join(dir, entry.name)) : statSync(join(dir, entry.name)).size), 0);
}

/** The JavaScript files of a bundle's directory: `index.mjs` and its chunks. */
const codeFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.mjs')).map((name) => join(dir, name));

/**
 * The files loading `file` loads before any code runs: itself and the chunks it imports
 * statically, transitively (esbuild writes `import {...} from "./chunk.mjs"`, `import * as x from
 * "./chunk.mjs"` or `import "./chunk.mjs"`); `import("./chunk.mjs")` waits for first use.
 */
function loadedAtInit(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, chunk] of readFileSync(file, 'utf8').matchAll(/\bimport\s*(?:(?:\{[^}]*\}|\*\s*as\s+[\w$]+)\s*from\s*)?"(\.\/[^"]+\.mjs)"/g)) {
    const path = join(dirname(file), chunk);
    if (existsSync(path)) loadedAtInit(path, seen);
  }
  return seen;
}

/** A report with one finding, enough for every part of the PDF. */
const PDF_REPORT = {
  scan_id: 'scn_bundle',
  project: { project_id: 'prj_bundle', name: 'Bundle', target: 'https://example.com' },
  status: 'completed',
  created_at: '2025-02-01T10:00:00.000Z',
  completed_at: '2025-02-01T10:01:00.000Z',
  risk_score: 40,
  risk_level: 'medium',
  detectors: [{ name: 'security', status: 'completed', risk_score: 40, risk_level: 'medium', summary: { total: 1, critical: 0, high: 0, medium: 1, low: 0, info: 0 } }],
  findings: [
    {
      id: 'fnd_1',
      detector: 'security',
      rule_id: 'security.missing-hsts',
      severity: 'medium',
      title: 'Strict-Transport-Security header missing',
      description: 'No header.',
      location: { type: 'url', url: 'https://example.com/' },
      remediation: 'Add it.',
      references: [],
      cvss_score: 5,
      status: 'open',
      fingerprint: 'fp-1',
      first_seen_at: '2025-02-01T10:00:00.000Z',
    },
  ],
  rules: [],
  tool: { name: 'Gatehouse', version: '0.0.0', information_uri: 'https://example.com' },
};

/**
 * The one synth that really bundles: every handler must resolve its imports with the local
 * esbuild (no Docker), and the code-split ESM bundle must load in Node, CommonJS dependencies
 * and lazily loaded chunks included.
 */
describe('function bundles', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'gatehouse-cdk-'));
  let bundles: { id: string; file: string }[];
  let exportBundle: string;
  let detectorBundle: string;
  let chromiumLayerDir: string;

  // Bundling every function takes seconds, but minutes on a busy machine: a generous bound.
  beforeAll(() => {
    const template: Template = synthGatehouse({ bundle: true, outdir });
    bundles = Object.entries(serviceFunctions(template)).map(([id, fn]) => {
      const assetHash = (fn.Properties.Code.S3Key as string).replace(/\.zip$/, '');
      return { id, file: join(outdir, `asset.${assetHash}`, BUNDLE_ENTRY_FILE) };
    });
    exportBundle = bundles.find(({ id }) => id === idAtPath(template, 'AWS::Lambda::Function', 'Gatehouse/Api/Scans/ExportScan/Resource'))!.file;
    detectorBundle = bundles.find(({ id }) => id === consumerId(template, scanDetectorWorker))!.file;
    const [layer] = Object.values(template.findResources('AWS::Lambda::LayerVersion')) as CfnResource[];
    chromiumLayerDir = join(outdir, `asset.${(layer.Properties.Content.S3Key as string).replace(/\.zip$/, '')}`);
  }, 600_000);

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  it('bundles every function into its own directory of ESM files, each with its source map', () => {
    expect(bundles).toHaveLength(DECLARED_FUNCTION_COUNT);
    expect(new Set(bundles.map(({ file }) => file)).size).toBe(bundles.length);

    for (const { id, file } of bundles) {
      expect(existsSync(file), id).toBe(true);
      for (const code of codeFiles(dirname(file))) {
        const text = readFileSync(code, 'utf8');
        expect(text.startsWith(ESM_REQUIRE_BANNER), code).toBe(true);
        expect(text.trimEnd().endsWith(`//# sourceMappingURL=${basename(code)}.map`), code).toBe(true);
        expect(JSON.parse(readFileSync(`${code}.map`, 'utf8')).sourcesContent, code).toBeUndefined();
      }
    }
  });

  it('produces bundles that load in plain Node and export `handler`', async () => {
    // A fresh Node process, not vitest's transform pipeline: the way Lambda loads them.
    const script = `${AWSLAMBDA_STUB}
for (const file of JSON.parse(process.argv[1])) console.log(typeof (await import(file)).handler);`;
    const urls = bundles.map(({ file }) => pathToFileURL(file).href);

    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(urls)]);

    expect(stdout.trim().split('\n')).toEqual(urls.map(() => 'function'));
  });

  it('produces chunks that load in plain Node too: what import() fetches on first use', async () => {
    // The directories, not every chunk's path: those would overflow the command line.
    const script = `${AWSLAMBDA_STUB}
const { readdirSync } = await import('node:fs');
const { join } = await import('node:path');
const { pathToFileURL } = await import('node:url');
let loaded = 0;
for (const dir of JSON.parse(process.argv[1])) {
  for (const name of readdirSync(dir).filter((name) => name.endsWith('.mjs') && name !== process.argv[2])) {
    await import(pathToFileURL(join(dir, name)).href);
    loaded++;
  }
}
console.log(loaded);`;
    const chunks = bundles.flatMap(({ file }) => codeFiles(dirname(file)).filter((code) => code !== file));
    expect(chunks.length).toBeGreaterThan(bundles.length);

    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(bundles.map(({ file }) => dirname(file))), BUNDLE_ENTRY_FILE]);

    expect(Number(stdout.trim())).toBe(chunks.length);
  });

  it('ships the detector worker with playwright-core installed beside its bundle and Chromium in its layer, within Lambda’s 250 MB', () => {
    const detectorDir = dirname(detectorBundle);
    expect(existsSync(join(detectorDir, 'node_modules/playwright-core/package.json'))).toBe(true);
    // The bundle imports the installed package rather than holding a copy that cannot find its files.
    expect(readFileSync(detectorBundle, 'utf8')).toMatch(/from\s*"playwright-core"/);
    expect(readdirSync(join(chromiumLayerDir, 'chromium')).sort()).toEqual(['al2023.tar.br', 'chromium.br', 'fonts.tar.br', 'swiftshader.tar.br']);
    const functionMb = directoryBytes(detectorDir) / 2 ** 20;
    const layerMb = directoryBytes(chromiumLayerDir) / 2 ** 20;
    // Figures (docs/benchmarks.md): ≈ 30 MB of code with playwright-core, ≈ 68 MB of packed browser.
    expect(functionMb).toBeLessThan(50);
    expect(layerMb).toBeLessThan(100);
    expect(functionMb + layerMb).toBeLessThan(250);
  });

  it('leaves pdfkit and the S3 client out of what the export loads at init: they are chunks of their own', () => {
    const atInit = [...loadedAtInit(exportBundle)];
    const lazy = codeFiles(dirname(exportBundle)).filter((code) => !atInit.includes(code));
    const holders = (text: string) => ({ atInit: atInit.filter((code) => readFileSync(code, 'utf8').includes(text)), lazy: lazy.filter((code) => readFileSync(code, 'utf8').includes(text)) });

    expect(atInit.reduce((bytes, code) => bytes + statSync(code).size, 0)).toBeLessThan(700 * 1024);
    // pdfkit's font lookup, and the S3 operation the export store calls.
    for (const text of ['#standard-fonts/Helvetica', '"PutObject"']) {
      expect(holders(text).atInit, text).toEqual([]);
      expect(holders(text).lazy, text).toHaveLength(1);
    }
  });

  it("renders a PDF through the export's lazily loaded chunk, with pdfkit's standard fonts copied beside it", async () => {
    // pdfkit asks for `#standard-fonts/Helvetica` through createRequire(import.meta.url): the URL of
    // the chunk it is bundled into, so Node resolves it through the package.json beside the chunks.
    const script = `for (const file of JSON.parse(process.argv[1])) {
  const chunk = await import(file);
  if (typeof chunk.toPdf !== 'function') continue;
  const pdf = await chunk.toPdf(JSON.parse(process.argv[2]));
  console.log(pdf.subarray(0, 5).toString('latin1'), pdf.toString('latin1').includes('/BaseFont /Helvetica'));
}`;
    const chunks = codeFiles(dirname(exportBundle)).filter((code) => !loadedAtInit(exportBundle).has(code));

    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(chunks.map((chunk) => pathToFileURL(chunk).href)), JSON.stringify(PDF_REPORT)]);

    expect(stdout.trim()).toBe('%PDF- true');
  });
});

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthGatehouse } from './synth';
import { DECLARED_FUNCTION_COUNT, idAtPath, type CfnResource } from './template-queries';

const run = promisify(execFile);
const ESM_REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/**
 * The one synth that really bundles: every handler must resolve its imports with the local
 * esbuild (no Docker), and the ESM bundle must load in Node, CommonJS dependencies included.
 */
describe('function bundles', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'gatehouse-cdk-'));
  let bundles: { id: string; file: string }[];
  let exportBundle: string;

  // Bundling every function takes minutes on a busy machine, as `cdk synth` does: a generous bound.
  beforeAll(() => {
    const template: Template = synthGatehouse({ bundle: true, outdir });
    const functions = template.findResources('AWS::Lambda::Function') as Record<string, CfnResource>;
    bundles = Object.entries(functions).map(([id, fn]) => {
      const assetHash = (fn.Properties.Code.S3Key as string).replace(/\.zip$/, '');
      return { id, file: join(outdir, `asset.${assetHash}`, 'index.mjs') };
    });
    exportBundle = bundles.find(({ id }) => id === idAtPath(template, 'AWS::Lambda::Function', 'Gatehouse/Api/ExportScan/Resource'))!.file;
  }, 600_000);

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  it('bundles every function into its own ESM file with a source map', () => {
    expect(bundles).toHaveLength(DECLARED_FUNCTION_COUNT);
    expect(new Set(bundles.map(({ file }) => file)).size).toBe(bundles.length);

    for (const { id, file } of bundles) {
      const code = readFileSync(file, 'utf8');
      expect(code.startsWith(ESM_REQUIRE_BANNER), id).toBe(true);
      expect(code.trimEnd().endsWith('//# sourceMappingURL=index.mjs.map'), id).toBe(true);
      expect(existsSync(`${file}.map`), id).toBe(true);
      expect(JSON.parse(readFileSync(`${file}.map`, 'utf8')).sourcesContent, id).toBeUndefined();
    }
  });

  it('produces bundles that load in plain Node and export `handler`', async () => {
    // A fresh Node process, not vitest's transform pipeline: the way Lambda loads them.
    // Lambda's Node.js runtime provides the `awslambda` global that response streaming uses.
    const script = `globalThis.awslambda = { streamifyResponse: (f) => f, HttpResponseStream: { from: (s) => s } };
for (const file of JSON.parse(process.argv[1])) console.log(typeof (await import(file)).handler);`;
    const urls = bundles.map(({ file }) => pathToFileURL(file).href);

    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(urls)]);

    expect(stdout.trim().split('\n')).toEqual(urls.map(() => 'function'));
  });

  it("gives the export bundle pdfkit's standard fonts, which pdfkit loads beside the bundle at run time", async () => {
    // pdfkit asks for `#standard-fonts/Helvetica` through createRequire(import.meta.url): the
    // bundle's own URL, so Node resolves it through the package.json next to the bundle.
    expect(readFileSync(exportBundle, 'utf8')).toContain('#standard-fonts/Helvetica');
    const script = `const { createRequire } = await import('node:module');
const font = createRequire(process.argv[1])('#standard-fonts/Helvetica');
console.log(font.name, font.glyphWidths.length > 0);`;

    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, pathToFileURL(exportBundle).href]);

    expect(stdout.trim()).toBe('Helvetica true');
  });
});

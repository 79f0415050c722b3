/**
 * Synthesizes the app the way the CDK CLI does (`npx cdk synth`, `npx cdk deploy`): the `app`
 * command of cdk.json in a child process, with the environment the CLI gives it, a profile's
 * account and region (`CDK_DEFAULT_ACCOUNT`, `CDK_DEFAULT_REGION`), the output directory
 * (`CDK_OUTDIR`) and the context (`CDK_CONTEXT_JSON`: cdk.json's, plus what the CLI adds). So
 * bin/app.ts runs as written, cdk-nag included: a nag error fails it as it fails `cdk synth`.
 *
 * The one difference: functions are not bundled (`aws:cdk:bundling-stacks: []`, as `cdk synth
 * --exclusively` does for the stacks it leaves out). The templates are the same apart from asset
 * hashes, and bundling 100 functions takes minutes per synth.
 *
 * As a script: `npx tsx test/infra/cli-synth.ts eu-central-2 [outdir]` prints where the assembly
 * is, or the report of why it failed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The account a test synthesizes for: any 12 digits, as the CLI gets from the profile's credentials. */
export const TEST_ACCOUNT = '123456789012';

export interface CliSynthOptions {
  region: string;
  account?: string;
  /** Context given on the command line (`cdk synth -c key=value`). */
  context?: Record<string, unknown>;
  /** Where the cloud assembly goes; default: a new temporary directory. */
  outdir?: string;
  /** Upper bound for the child (it is killed after it). */
  timeoutMs?: number;
}

export interface CliSynthResult {
  region: string;
  outdir: string;
  /** The child's exit code: 0 when the app synthesized and cdk-nag found no error. */
  code: number | null;
  output: string;
}

/** cdk.json as the CLI reads it: the app command and the project's context. */
function cdkJson(): { app: string; context: Record<string, unknown> } {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { app: string; context: Record<string, unknown> };
}

/** Runs cdk.json's app once, as `cdk synth` would with a profile in `region`. */
export async function synthThroughCli(options: CliSynthOptions): Promise<CliSynthResult> {
  const { region, account = TEST_ACCOUNT, context = {}, timeoutMs = 300_000 } = options;
  const outdir = options.outdir ?? mkdtempSync(join(tmpdir(), `gatehouse-synth-${region}-`));
  const { app, context: projectContext } = cdkJson();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CDK_DEFAULT_ACCOUNT: account,
    CDK_DEFAULT_REGION: region,
    CDK_OUTDIR: outdir,
    CDK_CONTEXT_JSON: JSON.stringify({
      ...projectContext,
      // What the CLI adds to every synth (its defaults for path and asset metadata, version reporting).
      'aws:cdk:enable-path-metadata': true,
      'aws:cdk:enable-asset-metadata': true,
      'aws:cdk:version-reporting': true,
      'aws:cdk:bundling-stacks': [],
      ...context,
    }),
  };
  // The CLI runs the app command through a shell, from the project directory.
  const child = spawn(app, { cwd: REPO_ROOT, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('close', resolve));
  clearTimeout(timer);
  return { region, outdir, code, output };
}

/** Every template file of the assembly: the root stack's and each nested stack's. */
export function templateFiles(outdir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8')) as { artifacts: Record<string, { type: string; properties?: { templateFile?: string } }> };
  const roots = Object.values(manifest.artifacts)
    .filter((artifact) => artifact.type === 'aws:cloudformation:stack' && artifact.properties?.templateFile)
    .map((artifact) => join(outdir, artifact.properties!.templateFile!));
  // Nested stacks' templates are file assets of their parent, named `<path>.nested.template.json`.
  const nested = roots.flatMap((root) => nestedTemplates(outdir, root));
  return [...roots, ...nested];
}

function nestedTemplates(outdir: string, templateFile: string): string[] {
  const template = JSON.parse(readFileSync(templateFile, 'utf8')) as { Resources?: Record<string, { Type: string; Metadata?: Record<string, unknown> }> };
  return Object.values(template.Resources ?? {})
    .filter((resource) => resource.Type === 'AWS::CloudFormation::Stack' && typeof resource.Metadata?.['aws:asset:path'] === 'string')
    .flatMap((resource) => {
      const file = join(outdir, resource.Metadata!['aws:asset:path'] as string);
      return [file, ...nestedTemplates(outdir, file)];
    });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [region = 'us-east-1', outdir] = process.argv.slice(2);
  const result = await synthThroughCli({ region, outdir });
  if (result.code !== 0) {
    process.stderr.write(result.output);
    process.stderr.write(`\nSynth in ${region} failed (exit ${result.code}).\n`);
    process.exit(1);
  }
  process.stdout.write(`Synthesized for ${region} in ${result.outdir}: ${templateFiles(result.outdir).length} templates.\n`);
}

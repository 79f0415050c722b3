import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDashboardBuilt } from '#lib/bundling/dashboard-build';
import { synthThroughCli, templateFiles, type CliSynthResult } from './cli-synth';
import { cfnLintVersion, lintTemplates, unacceptedFindings, type LintFinding } from './cfn-lint';

/**
 * `npx cdk synth` as a new user runs it, in regions that differ in what they offer (eu-central-2
 * has no SES receiving nor Lambda Function URLs, which the stack no longer uses), with cdk-nag on; then AWS's CloudFormation
 * linter on every template, root and nested, for that region. GATEHOUSE_SYNTH_REGIONS adds regions
 * (`GATEHOUSE_SYNTH_REGIONS="me-central-1 il-central-1" npx vitest run test/infra/regions.test.ts`).
 */
const REGIONS = [...new Set(['us-east-1', 'eu-west-1', 'eu-central-2', 'ap-southeast-2', ...(process.env.GATEHOUSE_SYNTH_REGIONS ?? '').split(/[\s,]+/).filter(Boolean)])];
/** Two synths at once: each takes a core for most of its 20 seconds. */
const PARALLEL = 2;

const lintVersion = cfnLintVersion();
if (!lintVersion) console.warn('cfn-lint is not installed (pip install cfn-lint): the templates are synthesized but not linted. .ci/run requires it.');

interface RegionResult {
  synth: CliSynthResult;
  templates: string[];
  findings?: LintFinding[];
}

/** The lines of a failed synth worth reading: cdk-nag's report and the error, not minified library source. */
function readable(output: string): string {
  return output
    .split('\n')
    .filter((line) => line.length < 400 && !line.startsWith('npm warn'))
    .join('\n');
}

async function synthAndLint(region: string): Promise<RegionResult> {
  const synth = await synthThroughCli({ region });
  if (synth.code !== 0) return { synth, templates: [] };
  const templates = templateFiles(synth.outdir);
  return { synth, templates, findings: lintVersion ? await lintTemplates(templates, region) : undefined };
}

describe('cdk synth through the CLI, in every tested region', () => {
  const results = new Map<string, RegionResult>();

  beforeAll(async () => {
    // Once, before the synths: each would otherwise see a stale web/dist and build it at the same time.
    await ensureDashboardBuilt();
    const queue = [...REGIONS];
    const worker = async () => {
      for (let region = queue.shift(); region; region = queue.shift()) results.set(region, await synthAndLint(region));
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  }, 900_000);

  afterAll(() => {
    for (const { synth } of results.values()) rmSync(synth.outdir, { recursive: true, force: true });
  });

  it.each(REGIONS)('synthesizes in %s with a concrete account and region, and cdk-nag reports no error', (region) => {
    const { synth, templates } = results.get(region)!;

    expect(synth.code, `cdk synth in ${region} failed:\n${readable(synth.output)}`).toBe(0);
    // The root stack and its nested stacks (route groups, monitoring).
    expect(templates.length).toBeGreaterThan(10);
  });

  it.skipIf(!lintVersion).each(REGIONS)('passes cfn-lint in %s: no error, and only the documented warning classes', (region) => {
    const { findings } = results.get(region)!;

    expect(findings, `no templates to lint in ${region}`).toBeDefined();
    const unaccepted = unacceptedFindings(findings!).map(({ level, rule, file, line, message }) => `${level} ${rule} ${file}:${line} ${message}`);
    expect(unaccepted, `cfn-lint ${lintVersion} in ${region}:\n${unaccepted.join('\n')}`).toEqual([]);
  });
});

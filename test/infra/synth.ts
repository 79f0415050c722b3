import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Source } from 'aws-cdk-lib/aws-s3-deployment';
import { REPO_ROOT } from '#lib/constructs/gatehouse-function';
import { GatehouseStack } from '#lib/stack';
import { allTemplates, flattenTemplate, type SynthesizedTemplate } from './flatten';

/** The feature flags `cdk synth` uses, so tests assert on the template that gets deployed. */
const cdkContext: Record<string, unknown> = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')).context;

export interface SynthOptions {
  /**
   * Bundle every function with esbuild (seconds per function). Off by default: the template
   * is identical apart from asset hashes, and GatehouseFunction still checks every handler file exists.
   */
  bundle?: boolean;
  /** Where the cloud assembly goes when bundling, to inspect the bundles. */
  outdir?: string;
  /** The stack's region, as the CLI gives it; default: none (environment-agnostic). */
  region?: string;
  /** CDK context on top of cdk.json's, as `-c key=value` gives it (`gatehouse:dashboardDomain`, `gatehouse:inboundMail`). */
  context?: Record<string, unknown>;
}

/** A stand-in for the built dashboard: tests do not build the web app. */
export const TEST_DASHBOARD_SITE = Source.data('index.html', '<!doctype html><title>Gatehouse</title>');

interface Synthesized {
  stack: Stack;
  /** The cloud assembly's directory: templates and staged assets. */
  directory: string;
  template: Template;
  templates: SynthesizedTemplate[];
}

const cache = new Map<string, Synthesized>();

/**
 * The Gatehouse stack's template with its nested stacks' resources inlined (flatten.ts), so a
 * query sees every resource and every reference whichever template holds it. Synthesized once per
 * worker and option set.
 */
export function synthGatehouse(options: SynthOptions = {}): Template {
  return synthesized(options).template;
}

/** Every real template of the assembly, root and nested, as CloudFormation gets them. */
export function synthGatehouseTemplates(options: SynthOptions = {}): SynthesizedTemplate[] {
  return synthesized(options).templates;
}

/** The directory of the synthesized cloud assembly, to read staged assets (the dashboard's config.json). */
export function synthGatehouseAssemblyDir(options: SynthOptions = {}): string {
  return synthesized(options).directory;
}

/** The synthesized Gatehouse stack itself, for what a template does not hold (annotations). */
export function synthGatehouseStack(options: SynthOptions = {}): Stack {
  return synthesized(options).stack;
}

function synthesized({ bundle = false, outdir, region, context = {} }: SynthOptions): Synthesized {
  const key = JSON.stringify([bundle, outdir ?? '', region ?? '', context]);
  let synth = cache.get(key);
  if (!synth) {
    const app = new App({
      outdir,
      // The wasm CloudFormation linter costs seconds per synth; `cdk synth` still runs it.
      builtinCloudFormationValidation: false,
      context: {
        ...cdkContext,
        // As `cdk synth` does: resources carry their construct path, so tests can find them by name.
        'aws:cdk:enable-path-metadata': true,
        ...(bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
        ...context,
      },
    });
    const stack = new GatehouseStack(app, 'Gatehouse', { dashboardSite: TEST_DASHBOARD_SITE, ...(region ? { env: { account: '123456789012', region } } : {}) });
    const assembly = app.synth();
    synth = { stack, directory: assembly.directory, template: Template.fromJSON(flattenTemplate(assembly.directory, stack)), templates: allTemplates(assembly.directory, stack) };
    cache.set(key, synth);
  }
  return synth;
}

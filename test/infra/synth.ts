import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { REPO_ROOT } from '#lib/constructs/gatehouse-function';
import { GatehouseStack } from '#lib/stack';

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
}

const cache = new Map<string, { stack: Stack; template: Template }>();

/** The Gatehouse stack's template, synthesized once per worker and option set. */
export function synthGatehouse(options: SynthOptions = {}): Template {
  return synthesized(options).template;
}

/** The synthesized Gatehouse stack itself, for what a template does not hold (annotations). */
export function synthGatehouseStack(options: SynthOptions = {}): Stack {
  return synthesized(options).stack;
}

function synthesized({ bundle = false, outdir }: SynthOptions): { stack: Stack; template: Template } {
  const key = `${bundle}:${outdir ?? ''}`;
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
      },
    });
    const stack = new GatehouseStack(app, 'Gatehouse');
    synth = { stack, template: Template.fromStack(stack) };
    cache.set(key, synth);
  }
  return synth;
}

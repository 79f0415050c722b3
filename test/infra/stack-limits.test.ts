import { describe, expect, it } from 'vitest';
import { synthGatehouse } from './synth';

/**
 * CloudFormation's quotas for one template: synth does not check them, a deploy fails on them.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html
 */
const QUOTAS = { resources: 500, parameters: 200, outputs: 200, templateBytes: 1_000_000 };

describe('stack within CloudFormation quotas', () => {
  const template = synthGatehouse().toJSON() as { Resources?: object; Parameters?: object; Outputs?: object };

  it(`has at most ${QUOTAS.resources} resources (past that, move the monitoring into a nested stack)`, () => {
    const count = Object.keys(template.Resources ?? {}).length;
    expect(count).toBeLessThanOrEqual(QUOTAS.resources);
  });

  it('has parameters, outputs and a template body within their quotas', () => {
    expect(Object.keys(template.Parameters ?? {}).length).toBeLessThanOrEqual(QUOTAS.parameters);
    expect(Object.keys(template.Outputs ?? {}).length).toBeLessThanOrEqual(QUOTAS.outputs);
    expect(Buffer.byteLength(JSON.stringify(template))).toBeLessThanOrEqual(QUOTAS.templateBytes);
  });
});

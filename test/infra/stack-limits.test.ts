import { describe, expect, it } from 'vitest';
import { synthGatehouseTemplates } from './synth';

/**
 * CloudFormation's quotas for one template: synth does not check them, a deploy fails on them.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html
 */
const QUOTAS = { resources: 500, parameters: 200, outputs: 200, templateBytes: 1_000_000 };
/** Room each template keeps for what is coming (more routes, functions, alarms): well under each quota. */
const HEADROOM = 0.6;

const templates = synthGatehouseTemplates();
const counts = templates.map(({ path, json }) => ({
  path,
  resources: Object.keys(json.Resources).length,
  parameters: Object.keys(json.Parameters ?? {}).length,
  outputs: Object.keys(json.Outputs ?? {}).length,
  templateBytes: Buffer.byteLength(JSON.stringify(json)),
}));

describe('every template of the assembly within CloudFormation quotas', () => {
  it('has a root template and the nested stacks of the route groups', () => {
    expect(templates[0].path).toBe('Gatehouse');
    expect(templates.filter(({ path }) => path.startsWith('Gatehouse/Api/')).length).toBeGreaterThan(5);
  });

  it.each(counts.map((count) => [`${count.path}: ${count.resources} resources, ${count.parameters} parameters, ${count.outputs} outputs, ${count.templateBytes} bytes`, count] as const))(
    '%s',
    (_, count) => {
      for (const quota of Object.keys(QUOTAS) as (keyof typeof QUOTAS)[]) {
        expect(count[quota], `${count.path} ${quota}: ${count[quota]} of at most ${QUOTAS[quota]} (kept under ${HEADROOM * QUOTAS[quota]})`).toBeLessThanOrEqual(HEADROOM * QUOTAS[quota]);
      }
    },
  );
});

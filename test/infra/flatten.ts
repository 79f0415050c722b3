import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestedStack, Stack, type CfnResource } from 'aws-cdk-lib';

/** A CloudFormation template as JSON. */
export interface TemplateJson {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; DependsOn?: string | string[] } & Record<string, unknown>>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, { Value: unknown }>;
  [section: string]: unknown;
}

/** One template of a synthesized assembly: the root stack's or a nested stack's. */
export interface SynthesizedTemplate {
  /** The construct path of the stack, e.g. `Gatehouse/Api/Tasks`. */
  path: string;
  json: TemplateJson;
}

function readTemplate(outdir: string, stack: Stack): TemplateJson {
  return JSON.parse(readFileSync(join(outdir, stack.templateFile), 'utf8')) as TemplateJson;
}

function nestedChildren(stack: Stack): NestedStack[] {
  return stack.node.findAll().filter((node): node is NestedStack => NestedStack.isNestedStack(node) && node.nestedStackParent === stack);
}

/** The stack's template and those of every stack nested in it, however deep. */
export function allTemplates(outdir: string, stack: Stack): SynthesizedTemplate[] {
  return [{ path: stack.node.path, json: readTemplate(outdir, stack) }, ...nestedChildren(stack).flatMap((child) => allTemplates(outdir, child))];
}

/** Rewrites every `Ref`, `Fn::GetAtt` and `DependsOn` of `value` with `rewrite`. */
function mapReferences(value: unknown, rewrite: { ref: (id: string) => unknown; getAtt: (id: string, attribute: string) => unknown; dependsOn: (id: string) => string }): unknown {
  if (Array.isArray(value)) return value.map((item) => mapReferences(item, rewrite));
  if (!value || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 1 && keys[0] === 'Ref' && typeof object.Ref === 'string') return rewrite.ref(object.Ref);
  if (keys.length === 1 && keys[0] === 'Fn::GetAtt' && Array.isArray(object['Fn::GetAtt'])) {
    const [id, attribute] = object['Fn::GetAtt'] as [string, string];
    return rewrite.getAtt(id, attribute);
  }
  return Object.fromEntries(
    Object.entries(object).map(([key, item]) => {
      if (key === 'DependsOn') return [key, Array.isArray(item) ? item.map((id: string) => rewrite.dependsOn(id)) : rewrite.dependsOn(item as string)];
      return [key, mapReferences(item, rewrite)];
    }),
  );
}

/**
 * The stack's template with every nested stack's resources inlined, as if it were one template:
 * a nested resource's logical id is prefixed with its nested stack's, a nested stack parameter
 * is replaced by the value its parent passes, and a parent's `Fn::GetAtt` of a nested output by
 * that output's value. References then point straight at the resource, wherever it is, so
 * assertions about who references what read the same whichever template a resource landed in.
 * Only for tests: it is not a deployable template (the nested stack resources are kept, for
 * their `DependsOn`).
 */
export function flattenTemplate(outdir: string, stack: Stack): TemplateJson {
  let json = readTemplate(outdir, stack);
  for (const child of nestedChildren(stack)) {
    const prefix = stack.resolve((child.nestedStackResource as CfnResource).logicalId) as string;
    const passed = (json.Resources[prefix].Properties?.Parameters ?? {}) as Record<string, unknown>;
    const inner = flattenTemplate(outdir, child);
    const own = new Set(Object.keys(inner.Resources));
    const rename = (id: string) => (own.has(id) ? `${prefix}${id}` : id);
    const inlined = mapReferences(inner, {
      ref: (id) => (id in passed ? passed[id] : { Ref: rename(id) }),
      getAtt: (id, attribute) => ({ 'Fn::GetAtt': [rename(id), attribute] }),
      dependsOn: rename,
    }) as TemplateJson;
    const outputs = inlined.Outputs ?? {};
    json = mapReferences(json, {
      ref: (id) => ({ Ref: id }),
      getAtt: (id, attribute) => (id === prefix && attribute.startsWith('Outputs.') ? outputs[attribute.slice('Outputs.'.length)].Value : { 'Fn::GetAtt': [id, attribute] }),
      dependsOn: (id) => id,
    }) as TemplateJson;
    for (const [id, resource] of Object.entries(inlined.Resources)) json.Resources[rename(id)] = resource;
  }
  return json;
}

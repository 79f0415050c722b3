import { App, Stack, Validations, type Stack as StackType } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Template } from 'aws-cdk-lib/assertions';
import type { PolicyValidationPluginReport } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { nagChecks } from '#lib/nag';
import { synthGatehouse, synthGatehouseStack } from './synth';
import { actionsOf, roleStatements } from './template-queries';

type Violation = PolicyValidationPluginReport['violations'][number];

/** One line per finding and resource, for failure messages a reader can act on. */
function describeViolations(violations: Violation[]): string[] {
  return violations.flatMap(({ ruleName, severity, description, violatingResources }) =>
    violatingResources.map(({ constructPath }) => `${severity} ${ruleName} at ${constructPath}: ${description}`),
  );
}

/** Every acknowledgement in a construct tree: where, which rule, and why. */
function acknowledgements(root: IConstruct): { path: string; id: string; reason: string }[] {
  return [root, ...root.node.findAll()].flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
      // CDK prefixes plugin rule ids with `Annotation::` (case varies by version), as cdk-nag strips.
      .map(([id, reason]) => ({ path: construct.node.path, id: id.replace(/^annotation::/i, ''), reason })),
  );
}

/** The AwsSolutions findings of a tree as if nothing were acknowledged. */
function unacknowledgedReport(root: IConstruct): PolicyValidationPluginReport {
  const pack = nagChecks();
  // The pack's acknowledgement check is private; switching it off shows what the acknowledgements cover.
  Object.defineProperty(pack, 'isAcknowledged', { value: () => false });
  return pack.validateScope(root);
}

describe('cdk-nag AwsSolutions', () => {
  let template: Template;
  let stack: StackType;

  beforeAll(() => {
    // Synthesizing first runs the aspects (monitoring's alarms), as `cdk synth` does before validation.
    template = synthGatehouse();
    stack = synthGatehouseStack();
  }, 120_000);

  it('finds no unacknowledged error or warning in the stack', () => {
    const report = nagChecks().validateScope(stack);

    const findings = describeViolations(report.violations);
    expect(findings, `cdk-nag findings:\n${findings.join('\n')}`).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('still reports what nothing acknowledges, errors and warnings alike (so the check above can fail)', () => {
    const probe = new Stack(new App(), 'Probe');
    // No dead-letter queue, no TLS-only policy: SQS3 and SQS4.
    new Queue(probe, 'Bare');

    const rules = nagChecks()
      .validateScope(probe)
      .violations.map(({ ruleName }) => ruleName);
    expect(rules).toEqual(expect.arrayContaining(['AwsSolutions-SQS3', 'AwsSolutions-SQS4']));
  });

  it('acknowledges each finding with a reason of its own, and an IAM5 wildcard only by its exact resource or action', () => {
    const acknowledged = acknowledgements(stack);

    expect(acknowledged.length).toBeGreaterThan(0);
    for (const { path, id, reason } of acknowledged) {
      expect(id, path).toMatch(/^AwsSolutions-[A-Z]+\d+/);
      if (id.startsWith('AwsSolutions-IAM5') || id.startsWith('AwsSolutions-IAM4')) expect(id, path).toMatch(/^AwsSolutions-IAM[45]\[(Resource|Action|Policy)::.+\]$/);
      // A sentence that says why, not a placeholder.
      expect(reason.length, `${path} ${id}`).toBeGreaterThan(60);
    }
  });

  it('has no stale acknowledgement: each acknowledged rule covers a finding cdk-nag really reports under one of its scopes', () => {
    const raw = unacknowledgedReport(stack).violations;
    const covered = (path: string, id: string) =>
      raw.some(({ ruleName, violatingResources }) => ruleName === id && violatingResources.some(({ constructPath }) => constructPath === path || Boolean(constructPath?.startsWith(`${path}/`))));
    // Per rule, not per scope: the function-wide ones (acknowledgeFunctionFindings) are set on every
    // function so that functions added later are covered, including read-only ones without KMS writes.
    const byRule = new Map<string, { path: string }[]>();
    for (const { id, path } of acknowledgements(stack)) byRule.set(id, [...(byRule.get(id) ?? []), { path }]);

    const stale = [...byRule].filter(([id, scopes]) => !scopes.some(({ path }) => covered(path, id))).map(([id]) => id);
    expect(stale).toEqual([]);
    expect(describeViolations(raw).length).toBeGreaterThan(byRule.size);
  });

  it('lets function roles use resource "*" only for X-Ray, which has no resource-level permissions', () => {
    // Every function of the template, declared or not (a sweeper's, a custom resource's).
    const starActions = Object.keys(template.findResources('AWS::Lambda::Function'))
      .flatMap((id) => roleStatements(template, id))
      .filter(({ Resource }) => [Resource].flat().includes('*'));

    expect(starActions.length).toBeGreaterThan(0);
    expect([...new Set(actionsOf(starActions))].sort()).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
  });

  it('gives no function the managed AWSLambdaBasicExecutionRole: each writes only to its own log group', () => {
    for (const [id, fn] of Object.entries(template.findResources('AWS::Lambda::Function')) as [string, { Properties: Record<string, any> }][]) {
      const roleId = fn.Properties.Role['Fn::GetAtt'][0];
      const logGroup = fn.Properties.LoggingConfig.LogGroup.Ref;
      const logStatements = roleStatements(template, id).filter((statement) => actionsOf([statement]).some((action) => action.startsWith('logs:')));

      expect(template.toJSON().Resources[roleId].Properties.ManagedPolicyArns, id).toBeUndefined();
      expect(logStatements, id).toEqual([{ Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: { 'Fn::GetAtt': [logGroup, 'Arn'] } }]);
    }
  });
});

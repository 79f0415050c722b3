import { ArnFormat, Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { SCHEDULER_ENV, targetArnEnv } from '#shared/adapters/scheduler/environment';
import type { ScheduleTarget } from '#shared/domain/scheduler';
import type { GatehouseFunction } from '#lib/constructs/gatehouse-function';
import { acknowledgeSchedulingGrant } from '#lib/nag';

const SCHEDULER_SERVICE = 'scheduler.amazonaws.com';
const GROUP_SUFFIX = '-schedules';
/** EventBridge Scheduler's limit on group names. */
const MAX_GROUP_NAME = 64;

/**
 * The one-time schedules of the service: a schedule group of its own (deleting the stack deletes
 * its pending schedules), and the role EventBridge Scheduler assumes to invoke the targets.
 * Functions that create schedules get exactly that through `grantScheduling`.
 */
export class Schedules extends Construct {
  public readonly group: CfnScheduleGroup;
  public readonly groupName: string;
  /** Assumed by EventBridge Scheduler; may invoke only the targets handed to `grantScheduling`. */
  public readonly role: Role;
  private readonly invokable = new Set<IFunction>();

  public constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    this.groupName = `${stack.stackName.slice(0, MAX_GROUP_NAME - GROUP_SUFFIX.length)}${GROUP_SUFFIX}`;
    this.group = new CfnScheduleGroup(this, 'Group', { name: this.groupName });

    this.role = new Role(this, 'InvokeRole', {
      description: 'Assumed by EventBridge Scheduler to invoke the targets of Gatehouse schedules.',
      // Only schedules of this account and group may use the role (confused-deputy guard).
      assumedBy: new ServicePrincipal(SCHEDULER_SERVICE, {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account, 'aws:SourceArn': this.group.attrArn } },
      }),
    });
  }

  /**
   * Lets `fn` create and delete schedules in the group that invoke `targets`, and gives it the
   * environment the EventBridge adapter reads. The role may invoke these targets, unqualified.
   */
  public grantScheduling(fn: GatehouseFunction, targets: Record<ScheduleTarget, IFunction>): void {
    fn.addEnvironment(SCHEDULER_ENV.backend, 'eventbridge');
    fn.addEnvironment(SCHEDULER_ENV.groupName, this.group.ref);
    fn.addEnvironment(SCHEDULER_ENV.roleArn, this.role.roleArn);
    for (const [target, targetFn] of Object.entries(targets) as [ScheduleTarget, IFunction][]) {
      fn.addEnvironment(targetArnEnv(target), targetFn.functionArn);
      this.allowInvoke(targetFn);
    }

    const schedulesInGroup = Stack.of(this).formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${this.groupName}/*`, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
    fn.addToRolePolicy(new PolicyStatement({ actions: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule'], resources: [schedulesInGroup] }));
    acknowledgeSchedulingGrant(fn.role ?? fn, schedulesInGroup);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': SCHEDULER_SERVICE } },
      }),
    );
  }

  private allowInvoke(target: IFunction): void {
    if (this.invokable.has(target)) return;
    this.invokable.add(target);
    this.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [target.functionArn] }));
  }
}

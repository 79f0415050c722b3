import { Duration, Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { recurringJobs, type RecurringJobDefinition } from '#shared/config/topology';
import { functionId, GatehouseFunction, type DataResources } from '#lib/constructs/gatehouse-function';

const SCHEDULER_SERVICE = 'scheduler.amazonaws.com';

/**
 * The recurring jobs of topology.ts (`recurringJobs`; today the stuck-work sweeper): per job a
 * function bound to exactly its declared access, a recurring EventBridge Scheduler schedule
 * (`rate(n minutes)`) in the service's schedule group, and a role of its own that Scheduler
 * assumes and that may invoke only that function.
 *
 * Neither Scheduler nor Lambda retries a failed run: the next run comes within the rate anyway,
 * and retries would only pile sweeps on top of each other.
 */
export class RecurringJobs extends Construct {
  /** Each job's function, by job name. */
  public readonly functions: ReadonlyMap<string, GatehouseFunction>;

  public constructor(scope: Construct, id: string, resources: DataResources) {
    super(scope, id);
    this.functions = new Map(recurringJobs.map((job) => [job.name, this.job(job, resources)] as const));
  }

  private job(job: RecurringJobDefinition, resources: DataResources): GatehouseFunction {
    const name = functionId(job.handler);
    const fn = new GatehouseFunction(this, name, {
      handlerFile: job.handler,
      timeout: Duration.seconds(job.timeoutSeconds),
      memorySize: job.memoryMb,
      retryAttempts: 0,
    });
    fn.bindData(job.access, resources);

    const { schedules } = resources;
    const stack = Stack.of(this);
    const role = new Role(this, `${name}InvokeRole`, {
      description: `Assumed by EventBridge Scheduler to run the ${job.name} every ${job.rateMinutes} minute(s).`,
      // Only schedules of this account and the service's group may use the role (confused-deputy guard).
      assumedBy: new ServicePrincipal(SCHEDULER_SERVICE, {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account, 'aws:SourceArn': schedules.group.attrArn } },
      }),
    });
    // The unqualified function only, not `grantInvoke`'s `:*` (every version and alias).
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));

    // L1: the L2 Lambda target grants `lambda:InvokeFunction` on `<function>:*` as well.
    new CfnSchedule(this, `${name}Schedule`, {
      description: `Runs the ${job.name} (${job.handler}).`,
      groupName: schedules.group.ref,
      scheduleExpression: rateExpression(job.rateMinutes),
      flexibleTimeWindow: { mode: 'OFF' },
      state: 'ENABLED',
      target: { arn: fn.functionArn, roleArn: role.roleArn, retryPolicy: { maximumRetryAttempts: 0, maximumEventAgeInSeconds: 60 } },
    });
    return fn;
  }
}

/** EventBridge Scheduler's rate expression: `rate(1 minute)`, `rate(5 minutes)`. */
export function rateExpression(minutes: number): string {
  return `rate(${minutes} ${minutes === 1 ? 'minute' : 'minutes'})`;
}

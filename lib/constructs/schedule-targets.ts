import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import { Function as LambdaFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { scheduleTargetAccess, scheduleTargets } from '#shared/config/topology';
import type { ScheduleTarget } from '#shared/domain/scheduler';
import { functionId, GatehouseFunction, type DataResources } from '#lib/constructs/gatehouse-function';

/** Targets do a few table operations per invocation (approval expiry). */
const TARGET_TIMEOUT = Duration.seconds(30);
/** Lambda's limit on function names. */
const MAX_FUNCTION_NAME = 64;

/**
 * The functions one-time schedules invoke (topology.ts `scheduleTargets`), e.g. the expiry of an
 * approval. Created before anything is bound, because every function that schedules needs their
 * ARNs; bound to their own access (`scheduleTargetAccess`) once all resources exist (`bind`).
 *
 * Each target has a fixed name, `<stack>-<target>`, and is handed around by the ARN built from that
 * name rather than by `Fn::GetAtt`:
 * - a pending schedule stores the target ARN when it is created, possibly days ahead; a name-based
 *   ARN stays valid when the function is replaced, a generated name would orphan those schedules;
 * - a target that schedules itself (the expiry target cancels its schedule) gets its own ARN in its
 *   environment, which `Fn::GetAtt` on itself would make a circular reference.
 */
export class ScheduleTargets extends Construct {
  /** The target functions, by target name. */
  public readonly functions: Record<ScheduleTarget, GatehouseFunction>;
  /** The targets by their name-based ARN, for `DataResources.scheduleTargets`. */
  public readonly targets: Record<ScheduleTarget, IFunction>;

  public constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    const functions: Partial<Record<ScheduleTarget, GatehouseFunction>> = {};
    const targets: Partial<Record<ScheduleTarget, IFunction>> = {};

    for (const [target, handlerFile] of Object.entries(scheduleTargets) as [ScheduleTarget, string][]) {
      const name = functionId(handlerFile);
      const suffix = `-${target}`;
      const functionName = `${stack.stackName.slice(0, MAX_FUNCTION_NAME - suffix.length)}${suffix}`;
      functions[target] = new GatehouseFunction(this, name, { handlerFile, timeout: TARGET_TIMEOUT, functionName });
      targets[target] = LambdaFunction.fromFunctionAttributes(this, `${name}ByName`, {
        functionArn: stack.formatArn({ service: 'lambda', resource: 'function', resourceName: functionName, arnFormat: ArnFormat.COLON_RESOURCE_NAME }),
        sameEnvironment: true,
      });
    }
    this.functions = functions as Record<ScheduleTarget, GatehouseFunction>;
    this.targets = targets as Record<ScheduleTarget, IFunction>;
  }

  /** Grants each target what `scheduleTargetAccess` declares. */
  public bind(resources: DataResources): void {
    for (const [target, fn] of Object.entries(this.functions) as [ScheduleTarget, GatehouseFunction][]) {
      fn.bindData(scheduleTargetAccess[target], resources);
    }
  }
}

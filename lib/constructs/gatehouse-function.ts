import { fileURLToPath } from 'node:url';
import { basename, join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { RouteAccess } from '#functions/routes';
import { TASK_QUEUES } from '#shared/config/topology';
import type { TaskPriority } from '#shared/domain/task';

/** The repository root: handler files in the route table and topology are relative to it. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `functions/tasks/create-task.ts` → `CreateTask`: handler files are unique in the route table. */
export function functionId(handlerFile: string): string {
  return basename(handlerFile, '.ts')
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

export interface GatehouseFunctionProps extends Omit<NodejsFunctionProps, 'entry' | 'timeout'> {
  /** Handler file relative to the repository root, as routes.ts and topology.ts declare it. */
  handlerFile: string;
  /** Required: API handlers and queue consumers have very different budgets. */
  timeout: Duration;
}

/** What a function may be bound to; queues are keyed by priority so their URL env names are known. */
export interface DataResources {
  table: ITable;
  taskQueues: Record<TaskPriority, IQueue>;
}

/**
 * Our Lambda defaults, held once: Node 22 on Graviton, ESM bundles built by the local esbuild
 * (synth works offline, without Docker), source maps, X-Ray, and a log group with retention
 * created here rather than left to Lambda (which would keep logs forever).
 */
export class GatehouseFunction extends NodejsFunction {
  public constructor(scope: Construct, id: string, props: GatehouseFunctionProps) {
    const { handlerFile, environment, bundling, ...rest } = props;
    super(scope, id, {
      memorySize: 512,
      ...rest,
      entry: join(REPO_ROOT, handlerFile),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      tracing: Tracing.ACTIVE,
      environment: { NODE_OPTIONS: '--enable-source-maps', ...environment },
      logGroup: new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH }),
      bundling: {
        format: OutputFormat.ESM,
        minify: true,
        sourceMap: true,
        target: 'node22',
        // Prefer ESM entry points of dependencies so esbuild can tree-shake them.
        mainFields: ['module', 'main'],
        // CommonJS dependencies inside an ESM bundle still call `require` for Node built-ins.
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        // Bundle the AWS SDK too: the version we test against, not whatever the runtime ships.
        externalModules: [],
        forceDockerBundling: false,
        ...bundling,
      },
    });
  }

  /**
   * Gives the function exactly the access its definition declares, and the environment that
   * goes with it: TABLE_NAME always; the task queue URLs only when it dispatches tasks.
   */
  public bindData(access: RouteAccess, { table, taskQueues }: DataResources): void {
    if (access.table === 'none') return;
    this.addEnvironment('TABLE_NAME', table.tableName);
    if (access.table === 'read_write') table.grantReadWriteData(this);
    else table.grantReadData(this);

    if (!access.dispatchTasks) return;
    for (const [priority, queue] of Object.entries(taskQueues) as [TaskPriority, IQueue][]) {
      this.addEnvironment(TASK_QUEUES[priority].urlEnv, queue.queueUrl);
      queue.grantSendMessages(this);
    }
  }
}

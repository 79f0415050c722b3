import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Api } from '#lib/constructs/api';
import { Data } from '#lib/constructs/data';
import { Tasks } from '#lib/constructs/tasks';

/**
 * Gatehouse on AWS: the table, the task queues with their worker, and the API. Each function
 * gets TABLE_NAME, and the queue URLs only if it dispatches tasks, through `bindData`.
 */
export class GatehouseStack extends Stack {
  public constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const { table } = new Data(this, 'Data');
    const tasks = new Tasks(this, 'Tasks', { table });
    new Api(this, 'Api', { table, taskQueues: tasks.queues });
  }
}

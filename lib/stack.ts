import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Api } from '#lib/constructs/api';
import { Data } from '#lib/constructs/data';
import { Streaming } from '#lib/constructs/streaming';
import { Tasks } from '#lib/constructs/tasks';

/**
 * Gatehouse on AWS: the table, the task queues with their worker, the API, and the streaming
 * routes behind Function URLs (which the REST API cannot stream). Each function
 * gets TABLE_NAME, and the queue URLs only if it dispatches tasks, through `bindData`.
 */
export class GatehouseStack extends Stack {
  public constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const { table } = new Data(this, 'Data');
    const tasks = new Tasks(this, 'Tasks', { table });
    const data = { table, taskQueues: tasks.queues };
    new Api(this, 'Api', data);
    new Streaming(this, 'Streaming', data);
  }
}

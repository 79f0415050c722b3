import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { tableItemsOf } from '#shared/adapters/dynamodb/index-items';
import { keys } from '#shared/adapters/dynamodb/keys';
import type { Task } from '#shared/domain/task';

type Item = Record<string, NativeAttributeValue>;

// Listings hand over items already stripped of their keys; tenant and task id name them either way.
const taskRef = (item: Item) => `${item.tenant_id as string}\u0000${item.task_id as string}`;

/**
 * A task's input is set once, at creation, but DynamoDB bills every update of the task by the
 * size of the whole item (twice inside the step transactions, once more for the gsi1 copy), so
 * a large inline input was billed again by each state change (docs/benchmarks.md). Inputs larger than one write unit are therefore stored once, in an item of their
 * own beside the task (same partition, sort key `INPUT`); smaller ones stay inline, where the
 * extra item and the extra read would cost more than they save.
 */
export const INLINE_INPUT_MAX_BYTES = 1024;

/** Marks a task item whose input is in its `INPUT` item. */
const INPUT_APART = 'input_apart';

/** The task's item attributes and, for a large input, the item that holds it. */
export function splitTaskInput(task: Task): { taskFields: Item; inputItem?: Item } {
  if (Buffer.byteLength(JSON.stringify(task.input), 'utf8') <= INLINE_INPUT_MAX_BYTES) return { taskFields: { ...task } };
  const { input, ...rest } = task;
  return {
    taskFields: { ...rest, [INPUT_APART]: true },
    inputItem: { ...keys.taskInput(task.tenant_id, task.task_id), entity: 'task_input', tenant_id: task.tenant_id, task_id: task.task_id, input },
  };
}

/** True when the task item's input lives in its `INPUT` item. */
export function hasInputApart(item: Item): boolean {
  return item[INPUT_APART] === true;
}

/** The task item with its input joined back in and the marker removed. */
function joined(item: Item, input: unknown): Item {
  const { [INPUT_APART]: marker, ...rest } = item;
  void marker;
  return { ...rest, input: input ?? {} };
}

/** A task item with its input, read from the `INPUT` item when stored apart (strongly consistent, as the task read). */
export async function withInput(item: Item): Promise<Item> {
  if (!hasInputApart(item)) return item;
  const { Item: inputItem } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.taskInput(item.tenant_id as string, item.task_id as string), ConsistentRead: true }),
  );
  return joined(item, inputItem?.input);
}

/**
 * Task items with their inputs, for listings: one BatchGetItem per 100 tasks whose input is
 * stored apart, none when every input is inline. Inputs never change and exist before their
 * task, so the eventually consistent read is enough.
 */
export async function withInputs<T extends object>(listed: readonly T[]): Promise<T[]> {
  const items = listed as readonly Item[];
  const apart = items.filter(hasInputApart);
  if (apart.length === 0) return [...listed];
  const inputItems = await tableItemsOf(apart.map((item) => keys.taskInput(item.tenant_id as string, item.task_id as string)));
  const inputs = new Map(inputItems.map((found) => [taskRef(found), found.input]));
  return items.map((item) => (hasInputApart(item) ? joined(item, inputs.get(taskRef(item))) : item)) as T[];
}

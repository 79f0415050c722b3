import { findAgentBySlug } from '#shared/agents/catalog';
import { RecordingContext } from './recording-context';

/** Runs one task of a built-in agent against a fresh recording context. */
export async function runTask(slug: string, taskType: string, input: unknown): Promise<RecordingContext> {
  const agent = findAgentBySlug(slug);
  if (!agent) throw new Error(`no agent ${slug}`);
  const handler = agent.handlers[taskType];
  if (!handler) throw new Error(`agent ${slug} has no handler for ${taskType}`);
  const context = new RecordingContext();
  await handler(input, context);
  return context;
}

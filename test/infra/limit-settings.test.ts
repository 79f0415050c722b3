import { App, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { API_LIMITS, EVENT_TRIGGER_LIMITS, limitEnvironment, WORKER_LIMITS } from '#lib/constructs/limit-settings';

function stackWithContext(context: Record<string, unknown>): Stack {
  return new Stack(new App({ context }), 'Limits');
}

describe('limits from CDK context', () => {
  it('sets the environment of each limit given as context, and leaves the others to the code defaults', () => {
    const stack = stackWithContext({ 'gatehouse:rateLimitPerSecond': 7, 'gatehouse:maxBodyBytes': '4096', 'gatehouse:tenantTaskConcurrency': 3 });

    // Route functions read the task cap too: a worker's claim takes a slot of it.
    expect(limitEnvironment(stack, API_LIMITS)).toEqual({ GATEHOUSE_RATE_LIMIT_PER_SECOND: '7', GATEHOUSE_MAX_BODY_BYTES: '4096', GATEHOUSE_TENANT_TASK_CONCURRENCY: '3' });
    expect(limitEnvironment(stack, WORKER_LIMITS)).toEqual({ GATEHOUSE_TENANT_TASK_CONCURRENCY: '3' });
    expect(limitEnvironment(stackWithContext({}), API_LIMITS)).toEqual({});
  });

  it('gives the count caps and the artifact budget to route functions, the fan-out budget to the event-trigger consumer', () => {
    const stack = stackWithContext({ 'gatehouse:maxWebhooksPerTenant': 10, 'gatehouse:maxArtifactsPerTask': 50, 'gatehouse:eventTriggerFanOut': 20 });

    expect(limitEnvironment(stack, API_LIMITS)).toEqual({ GATEHOUSE_MAX_WEBHOOKS_PER_TENANT: '10', GATEHOUSE_MAX_ARTIFACTS_PER_TASK: '50' });
    expect(limitEnvironment(stack, EVENT_TRIGGER_LIMITS)).toEqual({ GATEHOUSE_EVENT_TRIGGER_FAN_OUT: '20' });
    expect(() => limitEnvironment(stackWithContext({ 'gatehouse:maxTriggersPerTenant': 5000 }), API_LIMITS)).toThrow(/gatehouse:maxTriggersPerTenant must be an integer from 1 to 1000/);
  });

  it('fails the synth on a value outside the range the functions accept', () => {
    expect(() => limitEnvironment(stackWithContext({ 'gatehouse:maxBodyBytes': 5 * 1024 * 1024 }), API_LIMITS)).toThrow(/CDK context gatehouse:maxBodyBytes must be an integer from 1024 to 1048576/);
  });
});

import { describe, expect, it } from 'vitest';
import { artifactBudgetProblem, artifactBytes } from '#shared/domain/artifact';
import { readLimits } from '#shared/config/limits';

const budget = { maxCount: 100, maxBytes: 8 * 1024 * 1024 };

describe('the artifact budget of a task', () => {
  it('defaults to 100 artifacts and 8 MiB of data per task, each settable through its variable', () => {
    expect(readLimits({})).toMatchObject({ maxArtifactsPerTask: 100, maxArtifactBytesPerTask: 8 * 1024 * 1024 });
    expect(readLimits({ GATEHOUSE_MAX_ARTIFACTS_PER_TASK: '7', GATEHOUSE_MAX_ARTIFACT_BYTES_PER_TASK: '4096' })).toMatchObject({ maxArtifactsPerTask: 7, maxArtifactBytesPerTask: 4096 });
    expect(() => readLimits({ GATEHOUSE_MAX_ARTIFACTS_PER_TASK: '5000' })).toThrow(/GATEHOUSE_MAX_ARTIFACTS_PER_TASK must be an integer from 1 to 1000/);
  });

  it('counts data as its JSON in UTF-8 bytes', () => {
    expect(artifactBytes({})).toBe(2);
    expect(artifactBytes({ a: 'é' })).toBe('{"a":"é"}'.length + 1);
  });

  it('takes the 100th artifact and refuses the 101st with 409 artifact_limit_reached', () => {
    expect(artifactBudgetProblem(99, 0, 10, budget)).toBeUndefined();
    expect(artifactBudgetProblem(100, 0, 10, budget)).toMatchObject({ kind: 'conflict', code: 'artifact_limit_reached' });
    expect(artifactBudgetProblem(2_345, 0, 10, budget)).toMatchObject({ code: 'artifact_limit_reached' });
  });

  it('takes data up to exactly 8 MiB in all and refuses one byte more with 413 artifact_too_large', () => {
    expect(artifactBudgetProblem(1, budget.maxBytes - 10, 10, budget)).toBeUndefined();
    expect(artifactBudgetProblem(1, budget.maxBytes - 10, 11, budget)).toMatchObject({ kind: 'too_large', code: 'artifact_too_large' });
    expect(artifactBudgetProblem(0, 0, budget.maxBytes + 1, budget)).toMatchObject({ code: 'artifact_too_large' });
  });
});

import { describe, expect, it } from 'vitest';
import { artifactDataOf, storedArtifactData } from '#shared/adapters/dynamodb/artifact-data';

describe('artifact data as the table stores it', () => {
  it('keeps small data as a map: compressing it would not save a write unit', () => {
    const data = { title: 'Gap summary', gaps: 3 };
    expect(storedArtifactData(data)).toEqual({ data });
    expect(artifactDataOf(storedArtifactData(data))).toEqual(data);
  });

  it('stores a KB or more gzipped, several times smaller, and reads it back unchanged', () => {
    const data = {
      title: 'Audit report',
      findings: Array.from({ length: 60 }, (_, index) => ({ rule_id: `rule-${index}`, status: index % 3 === 0 ? 'gap' : 'met', note: 'Evidence reviewed against the control.' })),
      unicode: 'Zürich — 東京',
    };
    const stored = storedArtifactData(data);
    expect('data_gz' in stored).toBe(true);
    const bytes = (stored as { data_gz: Uint8Array }).data_gz.byteLength;
    expect(bytes * 3).toBeLessThan(Buffer.byteLength(JSON.stringify(data)));
    expect(artifactDataOf(stored)).toEqual(data);
  });
});

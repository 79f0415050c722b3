import { describe, expect, it } from 'vitest';
import { derivedId, idTime, isId } from '#shared/domain/ids';
import { eventRunId, mappedInput, matchVerdict, scheduledRunId } from '#shared/domain/trigger';

describe('run ids: the claim that makes each run happen once', () => {
  it('are the same for the same trigger and time (or artifact), and differ otherwise', () => {
    const at = new Date('2031-01-06T07:00:00.000Z');
    expect(scheduledRunId('trg_a', at)).toBe(scheduledRunId('trg_a', new Date(at)));
    expect(scheduledRunId('trg_a', at)).not.toBe(scheduledRunId('trg_b', at));
    expect(scheduledRunId('trg_a', at)).not.toBe(scheduledRunId('trg_a', new Date(at.getTime() + 60_000)));
    expect(eventRunId('trg_a', 'art_1', at)).not.toBe(eventRunId('trg_a', 'art_2', at));
    expect(eventRunId('trg_a', 'art_1', at)).not.toBe(scheduledRunId('trg_a', at));
  });

  it('are well-formed ids that sort by their time', () => {
    const id = derivedId('run', Date.parse('2031-01-06T07:00:00.000Z'), 'seed');
    expect(isId('run', id)).toBe(true);
    expect(idTime(id).toISOString()).toBe('2031-01-06T07:00:00.000Z');
    expect(derivedId('run', Date.parse('2031-01-06T07:00:00.000Z'), 'zzz') < derivedId('run', Date.parse('2031-01-06T07:00:00.001Z'), 'aaa')).toBe(true);
  });
});

describe('an event trigger\'s mapped input', () => {
  const context = { artifact: { artifact_id: 'art_1', type: 'sales.lead_list', data: { leads: [{ domain: 'a.example' }], total_matched: 4 } }, task: { task_id: 'tsk_1', input: { limit: 5 } } };

  it('sets each mapped field from its pointer, over the fixed input, and copies the values', () => {
    const input = mappedInput({ input: { tone: 'concise', leads: [] }, input_mapping: { leads: '/artifact/data/leads', source: '/artifact/artifact_id' } }, context);
    expect(input).toEqual({ tone: 'concise', leads: [{ domain: 'a.example' }], source: 'art_1' });
    (input.leads as { domain: string }[])[0].domain = 'changed';
    expect(context.artifact.data.leads[0].domain).toBe('a.example');
  });

  it('leaves a field as the input has it when its pointer finds nothing', () => {
    expect(mappedInput({ input: { limit: 1 }, input_mapping: { limit: '/task/input/nothing' } }, context)).toEqual({ limit: 1 });
  });

  it('is the input itself, copied, without a mapping', () => {
    const fixed = { scope: 'full' };
    const input = mappedInput({ input: fixed }, context);
    expect(input).toEqual(fixed);
    expect(input).not.toBe(fixed);
  });
});

describe('a trigger\'s patterns at run time', () => {
  it('match case-insensitively, an absent pattern matching everything', () => {
    expect(matchVerdict([[undefined, 'anything'], ['^audit', 'AUDIT us']])).toEqual({ matched: true });
    expect(matchVerdict([['^audit', 'audit'], ['^grace@', 'mallory@attacker.example']])).toEqual({ matched: false });
  });

  it('say why a stored pattern cannot be used any more, instead of throwing: its run fails with the reason', () => {
    const verdict = matchVerdict([['^audit', 'audit'], ['(a)\\1', 'aa']]);
    expect(verdict).toEqual({ unusable: expect.stringContaining("the trigger's pattern cannot be used: it cannot run in linear time") });
  });
});

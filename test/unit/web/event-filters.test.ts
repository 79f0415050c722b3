import { describe, expect, it } from 'vitest';
import { AUDIT_TYPES, eventPrincipal, eventSubjects, eventsQuery, filtersFromParams, isAuditFilter, isoToLocalInput, localInputToIso, paramsFromFilters } from '../../../web/src/lib/event-filters';

const NOW = new Date('2026-03-10T12:00:00Z');

describe("the Events page's filters", () => {
  it('make the audit log of exactly the administrative types the service records', () => {
    expect(AUDIT_TYPES).toEqual(expect.arrayContaining(['api_key.created', 'api_key.revoked', 'settings.retention_changed']));
    expect(AUDIT_TYPES.every((type) => /^(api_key|member|settings)\./.test(type))).toBe(true);
    expect(isAuditFilter([...AUDIT_TYPES].reverse().join(','))).toBe(true);
    expect(isAuditFilter('api_key.created')).toBe(false);
    expect(isAuditFilter('')).toBe(false);
  });

  it('round-trip through the URL, leaving out what is unset or default', () => {
    const values = filtersFromParams(new URLSearchParams('type=task.complete&task_id=%20task_1%20&range=custom&after=2026-03-01T08:00'));
    expect(values).toEqual({ type: 'task.complete', task_id: ' task_1 ', agent: '', range: 'custom', after: '2026-03-01T08:00', before: '' });
    expect(paramsFromFilters(values)).toEqual({ type: 'task.complete', task_id: 'task_1', range: 'custom', after: '2026-03-01T08:00' });
    expect(paramsFromFilters(filtersFromParams(new URLSearchParams('range=nonsense&after=x')))).toEqual({});
  });

  it('turn a range into the API query, measured back from now', () => {
    expect(eventsQuery(filtersFromParams(new URLSearchParams('')), NOW)).toEqual({ after: '2026-03-09T12:00:00.000Z' });
    expect(eventsQuery(filtersFromParams(new URLSearchParams('range=all&agent=sales')), NOW)).toEqual({ agent: 'sales' });
    const custom = eventsQuery(filtersFromParams(new URLSearchParams('range=custom&before=2026-03-02T10:30')), NOW);
    expect(custom).toEqual({ before: new Date('2026-03-02T10:30').toISOString() });
  });

  it('read datetime-local values in the viewer zone and write them back', () => {
    const local = isoToLocalInput(new Date(2026, 0, 5, 7, 9));
    expect(local).toBe('2026-01-05T07:09');
    expect(localInputToIso(local)).toBe(new Date(2026, 0, 5, 7, 9).toISOString());
    expect(localInputToIso('')).toBeUndefined();
    expect(localInputToIso('not a time')).toBeUndefined();
  });

  it('find what an event is about and who made an administrative change', () => {
    const emitted = { task_id: 'task_1', data: { task_id: 'task_1', artifact_id: 'art_1', type: 'x' } };
    expect(eventSubjects(emitted)).toMatchObject({ taskId: 'task_1', artifactId: 'art_1', approvalId: undefined });
    // Stream frames carry only `data`: the subjects come from there.
    expect(eventSubjects({ data: { approval_id: 'apr_1', task_id: 'task_2' } })).toMatchObject({ taskId: 'task_2', approvalId: 'apr_1' });
    expect(eventPrincipal({ data: { key_id: 'key_1', principal: { type: 'user', id: 'usr_1' } } })).toEqual({ type: 'user', id: 'usr_1' });
    expect(eventPrincipal({ data: { principal: { type: 'user' } } })).toBeUndefined();
    expect(eventPrincipal({ data: {} })).toBeUndefined();
  });
});

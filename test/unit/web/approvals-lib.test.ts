import { describe, expect, it } from 'vitest';
import { editableFields, hasEditableBody, isChanged, modifiedAction } from '../../../web/src/features/approvals/lib/action-fields';
import { mergeNewestFirst } from '../../../web/src/features/approvals/lib/merge-newest';

const at = (minute: number) => ({ id: `m${minute}`, created_at: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString() });
const time = (item: { created_at: string }) => item.created_at;

describe('mergeNewestFirst', () => {
  it('interleaves finished lists newest first', () => {
    const merged = mergeNewestFirst([{ items: [at(9), at(5), at(1)], hasMore: false }, { items: [at(8), at(2)], hasMore: false }], time);

    expect(merged.items.map((item) => item.id)).toEqual(['m9', 'm8', 'm5', 'm2', 'm1']);
    expect(merged.loadNext).toEqual([]);
  });

  it('holds back items older than the last loaded item of a list with more pages', () => {
    const merged = mergeNewestFirst([{ items: [at(9), at(5), at(1)], hasMore: false }, { items: [at(8), at(6)], hasMore: true }], time);

    expect(merged.items.map((item) => item.id)).toEqual(['m9', 'm8', 'm6']);
    expect(merged.loadNext).toEqual([1]);
  });

  it('cuts at the newest boundary when both lists have more, and loads that list next', () => {
    const merged = mergeNewestFirst([{ items: [at(9), at(3)], hasMore: true }, { items: [at(8), at(6)], hasMore: true }], time);

    expect(merged.items.map((item) => item.id)).toEqual(['m9', 'm8', 'm6']);
    expect(merged.loadNext).toEqual([1]);
  });

  it('shows nothing while a list with more pages has none loaded yet', () => {
    expect(mergeNewestFirst([{ items: [at(9)], hasMore: false }, { items: [], hasMore: true }], time).items).toEqual([]);
  });
});

describe('approval actions', () => {
  const mail = { type: 'mail.send', body: 'Hi Tomas,\n\nTen minutes?', subject: 'An idea', to: 'tomas@xylo.example' };

  it('lists the text fields to, subject, body in that order, never the type', () => {
    expect(editableFields(mail)).toEqual(['to', 'subject', 'body']);
    expect(editableFields({ type: 'x', count: 3, note: 'n' })).toEqual(['note']);
  });

  it('offers Edit only for an action with a body', () => {
    expect(hasEditableBody(mail)).toBe(true);
    expect(hasEditableBody({ type: 'github.create_issue', title: 't' })).toBe(false);
  });

  it('builds the modified action from the edits, keeping the type and untouched fields', () => {
    expect(modifiedAction(mail, { body: 'Shorter.', type: 'other' })).toEqual({ ...mail, body: 'Shorter.' });
    expect(isChanged(mail, { body: mail.body, subject: mail.subject })).toBe(false);
    expect(isChanged(mail, { body: 'Shorter.' })).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { decisionOf, effectiveApproval, isExpired, renderApproval, validateModifiedAction, type Approval } from '#shared/domain/approval';
import { InvalidRequestError } from '#shared/domain/errors';

const approval: Approval = {
  approval_id: 'apr_1',
  tenant_id: 't',
  task_id: 'tsk_1',
  agent: 'sales',
  step: 3,
  title: 'Send outreach email',
  description: 'To Ada',
  action: { type: 'mail.send', to: 'ada@example.com', subject: 'Hello', body: 'Hi Ada' },
  status: 'pending',
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2026-01-02T00:00:00.000Z',
};

describe('approvals', () => {
  it('read as denied (expired) from expires_at on, even before the expiry ran', () => {
    expect(effectiveApproval(approval, new Date('2026-01-01T23:59:59.999Z')).status).toBe('pending');
    expect(isExpired(approval, new Date('2026-01-02T00:00:00.000Z'))).toBe(true);
    expect(renderApproval(approval, new Date('2026-01-03T00:00:00.000Z'))).toMatchObject({ status: 'denied', decision: 'denied', resolution: 'expired', resolved_at: approval.expires_at });
  });

  it('never expire once resolved', () => {
    const approved = { ...approval, status: 'approved' as const, decision: 'approved' as const, resolution: 'resolved' as const };
    expect(effectiveApproval(approved, new Date('2027-01-01T00:00:00Z')).status).toBe('approved');
  });

  it('replay the decision, the executed action and the comment into the agent', () => {
    expect(decisionOf({ ...approval, status: 'approved', decision: 'approved', comment: 'ok', resolution: 'resolved' })).toEqual({ approval_id: approval.approval_id, decision: 'approved', action: approval.action, comment: 'ok', resolution: 'resolved' });
  });

  it('accept a modified mail.send that keeps its type', () => {
    const modified = { type: 'mail.send', to: 'bob@example.com', subject: 'Edited', body: 'New body' };
    expect(validateModifiedAction(approval.action, modified)).toEqual(modified);
  });

  it.each([
    [{ type: 'mail.delete', to: 'a@example.com', subject: 's', body: 'b' }, 'body.modified_action.type'],
    [{ type: 'mail.send', to: 'two@example.com, three@example.com', subject: 's', body: 'b' }, 'body.modified_action.to'],
    [{ type: 'mail.send', to: 'a@example.com', subject: 'Hi\r\nBcc: evil@example.com', body: 'b' }, 'body.modified_action.subject'],
    [{ type: 'mail.send', to: 'a@example.com', subject: 's', body: '' }, 'body.modified_action.body'],
    [{ type: 'mail.send', to: 'a@example.com', subject: 's', body: 'b', bcc: 'x@example.com' }, 'body.modified_action.bcc'],
  ])('reject a modified action %j at %s', (modified, path) => {
    expect(() => validateModifiedAction(approval.action, modified)).toThrow(InvalidRequestError);
    try {
      validateModifiedAction(approval.action, modified);
    } catch (error) {
      expect((error as InvalidRequestError).errors.map((e) => e.path)).toContain(path);
    }
  });
});

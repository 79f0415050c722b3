import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundPersonOf, renderApiKey, type ApiKeyRecord } from '#shared/domain/api-key';
import { isDemotion, keyBindingAction, roleWithin } from '#shared/domain/key-binding';
import { allows, MEMBER_ROLES, ROLES } from '#shared/domain/roles';

const key = (fields: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({ key_id: 'key_1', tenant_id: 't', key_hash: 'ab', display_prefix: 'gh_live_abcd…', created_at: '2026-01-01T00:00:00.000Z', ...fields });

describe('a key bound to a person', () => {
  it('acts with the most that both its own role and its person’s current role cover', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ROLES), fc.constantFrom(...MEMBER_ROLES), (role, ceiling) => {
        const capped = roleWithin(role, ceiling);
        if (role === 'agent') return capped === (ceiling === 'admin' ? 'agent' : undefined);
        // Below both, and the most: any role both cover is covered by it.
        const covered = MEMBER_ROLES.filter((other) => allows(role, other) && allows(ceiling, other));
        return capped !== undefined && allows(role, capped) && allows(ceiling, capped) && covered.every((other) => allows(capped, other));
      }),
    );
  });

  it('keeps the most both roles cover: admin under a viewer is a viewer, siblings meet at viewer', () => {
    expect(roleWithin('admin', 'viewer')).toBe('viewer');
    expect(roleWithin('admin', 'approver')).toBe('approver');
    expect(roleWithin('operator', 'approver')).toBe('viewer');
    expect(roleWithin('viewer', 'admin')).toBe('viewer');
    expect(roleWithin('agent', 'admin')).toBe('agent');
    expect(roleWithin('agent', 'operator')).toBeUndefined();
  });

  it('follows a demotion only when power is taken away', () => {
    expect(isDemotion('admin', 'viewer')).toBe(true);
    expect(isDemotion('approver', 'operator')).toBe(true);
    expect(isDemotion('viewer', 'admin')).toBe(false);
    expect(isDemotion('operator', 'admin')).toBe(false);
  });

  it('is revoked when the person is removed, capped or left when demoted', () => {
    expect(keyBindingAction('viewer', { change: 'removed' })).toEqual({ action: 'revoke' });
    expect(keyBindingAction('admin', { change: 'demoted', role: 'viewer' })).toEqual({ action: 'cap', role: 'viewer' });
    expect(keyBindingAction('viewer', { change: 'demoted', role: 'viewer' })).toEqual({ action: 'none' });
    expect(keyBindingAction('agent', { change: 'demoted', role: 'operator' })).toEqual({ action: 'revoke' });
  });

  it('is bound to the person who created it, also when created before `bound_to` existed; never to a creating key', () => {
    expect(boundPersonOf(key({ bound_to: 'usr_a', created_by: { type: 'api_key', id: 'key_0' } }))).toBe('usr_a');
    expect(boundPersonOf(key({ created_by: { type: 'user', id: 'usr_b' } }))).toBe('usr_b');
    expect(boundPersonOf(key({ created_by: { type: 'api_key', id: 'key_0' } }))).toBeUndefined();
    expect(boundPersonOf(key())).toBeUndefined();
  });

  it('shows its granted role, and whether it is capped or suspended', () => {
    const capped = key({ role: 'viewer', granted_role: 'admin', bound_to: 'usr_a' });

    expect(renderApiKey(capped)).toMatchObject({ role: 'viewer', granted_role: 'admin', capped: true, suspended: false, bound_to: 'usr_a' });
    expect(renderApiKey(key({ role: 'admin', bound_to: 'usr_a' }), { role: 'approver' })).toMatchObject({ role: 'approver', granted_role: 'admin', capped: true, suspended: false });
    expect(renderApiKey(key({ role: 'admin', bound_to: 'usr_a' }), { role: undefined })).toMatchObject({ role: 'admin', capped: false, suspended: true });
    expect(renderApiKey(key({ role: 'admin', revoked_at: '2026-01-02T00:00:00.000Z', revoked_reason: 'creator_removed' }), { role: undefined })).toMatchObject({ suspended: false, revoked_reason: 'creator_removed' });
  });
});

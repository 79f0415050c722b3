import { describe, expect, it } from 'vitest';
import { LocalAccounts, parseLocalUsers, subjectOf } from '#lib/local/oidc/local-users';

describe('GATEHOUSE_USERS', () => {
  it('lists people with their password, tenant and role, emails lower-cased', () => {
    expect(parseLocalUsers(' Alice@Example.com:pa55word:tenant_a:admin , bob@example.com:x:tenant-b:viewer')).toEqual([
      { email: 'alice@example.com', password: 'pa55word', tenantId: 'tenant_a', role: 'admin' },
      { email: 'bob@example.com', password: 'x', tenantId: 'tenant-b', role: 'viewer' },
    ]);
    expect(parseLocalUsers(undefined)).toEqual([]);
    expect(parseLocalUsers('  ')).toEqual([]);
  });

  it('fails on a bad entry, naming it without its password', () => {
    const failure = (value: string) => {
      try {
        parseLocalUsers(value);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`'${value}' was accepted`);
    };
    expect(failure('alice@example.com:secret:tenant_a')).toMatch(/not 'email:password:tenant:role'/);
    expect(failure('alice@example.com:secret:tenant_a:owner')).toMatch(/role must be admin, approver, operator or viewer/);
    expect(failure('alice:secret:tenant_a:admin')).toMatch(/not an email address/);
    expect(failure('alice@example.com::tenant_a:admin')).toMatch(/password is empty/);
    expect(failure('alice@example.com:secret:tenant a:admin')).toMatch(/tenant must be/);
    expect(failure('a@example.com:secret:t:admin,A@example.com:other:t:viewer')).toMatch(/lists 'a@example.com' twice/);
    expect(failure('alice@example.com:secret:tenant_a:owner')).not.toContain('secret');
  });
});

describe('local accounts', () => {
  const accounts = new LocalAccounts(parseLocalUsers('alice@example.com:pa55word:tenant_a:admin'));

  it('sign in with the right password only, whatever the email’s case', () => {
    expect(accounts.signIn('ALICE@example.com', 'pa55word')).toBe(subjectOf('alice@example.com'));
    expect(accounts.signIn('alice@example.com', 'pa55wore')).toBeUndefined();
    expect(accounts.signIn('nobody@example.com', 'pa55word')).toBeUndefined();
  });

  it('give a stable subject that is not the email, and the email as a verified claim', () => {
    const sub = subjectOf('alice@example.com');
    expect(sub).not.toContain('alice');
    expect(subjectOf('Alice@Example.com')).toBe(sub);
    expect(accounts.claims(sub)).toEqual({ sub, email: 'alice@example.com', email_verified: true });
    expect(accounts.claims('local-unknown')).toBeUndefined();
  });
});

import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { isMemberRole, type MemberRole } from '#shared/domain/roles';
import { normaliseEmail } from '#shared/domain/member';

/** A person who can sign in to the local runtime's OpenID provider (GATEHOUSE_USERS or the dev user). */
export interface LocalUser {
  email: string;
  password: string;
  tenantId: string;
  role: MemberRole;
}

const EMAIL = /^[^\s@:,]+@[^\s@:,]+$/;
const TENANT = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Parses `GATEHOUSE_USERS="alice@example.com:password:tenant_a:admin,..."`. A bad entry is an error
 * naming it (without its password), so a typo fails the start instead of a sign-in later.
 */
export function parseLocalUsers(value: string | undefined): LocalUser[] {
  if (!value?.trim()) return [];
  const users = value.split(',').map((entry) => {
    const parts = entry.trim().split(':');
    const [email = '', password = '', tenantId = '', role = ''] = parts;
    const shown = `${email}:…:${tenantId}:${role}`;
    if (parts.length !== 4) throw new Error(`GATEHOUSE_USERS entry '${shown}' is not 'email:password:tenant:role' (a password may not contain ':' or ',').`);
    if (!EMAIL.test(email)) throw new Error(`GATEHOUSE_USERS entry '${shown}': '${email}' is not an email address.`);
    if (password.length === 0) throw new Error(`GATEHOUSE_USERS entry '${shown}': the password is empty.`);
    if (!TENANT.test(tenantId)) throw new Error(`GATEHOUSE_USERS entry '${shown}': the tenant must be 1 to 64 letters, digits, '_' or '-'.`);
    if (!isMemberRole(role)) throw new Error(`GATEHOUSE_USERS entry '${shown}': the role must be admin, approver, operator or viewer.`);
    return { email: normaliseEmail(email), password, tenantId, role };
  });
  const seen = new Set<string>();
  for (const { email } of users) {
    if (seen.has(email)) throw new Error(`GATEHOUSE_USERS lists '${email}' twice: a person is a member of one tenant.`);
    seen.add(email);
  }
  return users;
}

/** The dev user of a runtime started without GATEHOUSE_USERS. */
export const DEV_USER_EMAIL = 'dev@gatehouse.local';

export function devUser(password: string): LocalUser {
  return { email: DEV_USER_EMAIL, password, tenantId: 'dev', role: 'admin' };
}

export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/** The subject (`sub`) of a local user: stable across restarts, and not the email itself. */
export function subjectOf(email: string): string {
  return `local-${createHash('sha256').update(normaliseEmail(email)).digest('hex').slice(0, 32)}`;
}

interface Account {
  user: LocalUser;
  sub: string;
  hash: Buffer;
}

/**
 * The provider's accounts, with passwords kept only as scrypt hashes. A sign-in with an unknown
 * email hashes too, and compares in constant time, so its timing tells nothing about who exists.
 */
export class LocalAccounts {
  private readonly salt = randomBytes(16);
  private readonly byEmail = new Map<string, Account>();
  private readonly bySubject = new Map<string, Account>();
  private readonly decoy: Buffer;

  constructor(users: LocalUser[]) {
    for (const user of users) {
      const account = { user, sub: subjectOf(user.email), hash: this.hash(user.password) };
      this.byEmail.set(user.email, account);
      this.bySubject.set(account.sub, account);
    }
    this.decoy = this.hash(randomBytes(16).toString('hex'));
  }

  private hash(password: string): Buffer {
    return scryptSync(password.normalize('NFC'), this.salt, 32);
  }

  /** The subject of the user with this email and password, or undefined. */
  signIn(email: string, password: string): string | undefined {
    const account = this.byEmail.get(normaliseEmail(email));
    const matches = timingSafeEqual(this.hash(password), account?.hash ?? this.decoy);
    return matches && account ? account.sub : undefined;
  }

  /** The claims of a subject (`userinfo`, ID token), or undefined when no such user exists. */
  claims(sub: string): { sub: string; email: string; email_verified: true } | undefined {
    const account = this.bySubject.get(sub);
    return account ? { sub, email: account.user.email, email_verified: true } : undefined;
  }
}

/** The people global setup registers (GATEHOUSE_USERS) and the tenants' API keys for seeding data. */
export const PEOPLE = {
  adminA: { email: 'admin@tenant-a.example', password: 'browser-admin-a-pass', tenant: 'tenant_a', role: 'admin' },
  viewerA: { email: 'viewer@tenant-a.example', password: 'browser-viewer-a-pass', tenant: 'tenant_a', role: 'viewer' },
  approverA: { email: 'approver@tenant-a.example', password: 'browser-approver-a-pass', tenant: 'tenant_a', role: 'approver' },
  adminB: { email: 'admin@tenant-b.example', password: 'browser-admin-b-pass', tenant: 'tenant_b', role: 'admin' },
  // Starts as tenant B's viewer; invitations.spec.ts removes them there, so tenant A's invitation is theirs to answer.
  newcomer: { email: 'newcomer@tenant-b.example', password: 'browser-newcomer-pass', tenant: 'tenant_b', role: 'viewer' },
} as const;

export type Person = (typeof PEOPLE)[keyof typeof PEOPLE];

export const API_KEYS = { tenant_a: 'gh_browser_tenant_a_key', tenant_b: 'gh_browser_tenant_b_key' } as const;

/** GATEHOUSE_USERS for the runtime: `email:password:tenant:role,...`. */
export function usersSetting(): string {
  return Object.values(PEOPLE)
    .map((person) => `${person.email}:${person.password}:${person.tenant}:${person.role}`)
    .join(',');
}

/** GATEHOUSE_API_KEYS for the runtime: `tenant:key,...`. */
export function apiKeysSetting(): string {
  return Object.entries(API_KEYS)
    .map(([tenant, key]) => `${tenant}:${key}`)
    .join(',');
}

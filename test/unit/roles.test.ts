import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { allows, ROLES, type Role } from '#shared/domain/roles';
import { leastRoleOf } from '#shared/http/role-check';

/**
 * The least role of every route, written out: a change to a route's role is a visible diff of
 * this table. Public routes (auth `none`) have none.
 */
const EXPECTED: Record<string, Role | null> = {
  'GET /health': null,
  'GET /problems': null,
  'GET /problems/{code}': null,
  'GET /openapi.json': null,
  'POST /agents/deploy': 'admin',
  'GET /agents': 'viewer',
  'GET /agents/catalog': 'viewer',
  'GET /agents/{agent_id}': 'viewer',
  'GET /agents/{agent_id}/manifest': 'viewer',
  'PATCH /agents/{agent_id}/config': 'admin',
  // The worker protocol: agent keys only (and they nothing else).
  'POST /agents/{agent_id}/claims': 'agent',
  'POST /tasks/{task_id}/heartbeat': 'agent',
  'POST /tasks/{task_id}/artifacts': 'agent',
  'POST /tasks/{task_id}/approvals': 'agent',
  'POST /tasks/{task_id}/tool-calls': 'agent',
  'POST /tasks/{task_id}/complete': 'agent',
  'POST /tasks/{task_id}/fail': 'agent',
  'POST /tasks/{task_id}/release': 'agent',
  'POST /tasks': 'operator',
  'GET /tasks': 'viewer',
  'GET /tasks/{task_id}': 'viewer',
  'DELETE /tasks/{task_id}': 'operator',
  'POST /tasks/{task_id}/cancel': 'operator',
  'GET /tasks/{task_id}/artifacts': 'viewer',
  'POST /sessions': 'operator',
  'GET /sessions': 'viewer',
  'GET /sessions/{session_id}': 'viewer',
  'POST /sessions/{session_id}/messages': 'operator',
  'GET /sessions/{session_id}/messages': 'viewer',
  'POST /sessions/{session_id}/close': 'operator',
  'POST /triggers': 'operator',
  'GET /triggers': 'viewer',
  'GET /triggers/{trigger_id}': 'viewer',
  'PATCH /triggers/{trigger_id}': 'operator',
  'DELETE /triggers/{trigger_id}': 'operator',
  'POST /triggers/{trigger_id}/fire': 'operator',
  'GET /triggers/{trigger_id}/runs': 'viewer',
  'POST /integrations': 'admin',
  'GET /integrations': 'viewer',
  'GET /integrations/{integration_id}': 'viewer',
  'PATCH /integrations/{integration_id}': 'admin',
  'DELETE /integrations/{integration_id}': 'admin',
  'POST /integrations/{integration_id}/test': 'admin',
  // Slack calls these without an API key; the app's signing secret verifies each request.
  'POST /integrations/{integration_id}/slack/interactions': null,
  'POST /integrations/{integration_id}/slack/events': null,
  'GET /artifacts': 'viewer',
  'GET /artifacts/{artifact_id}': 'viewer',
  'DELETE /artifacts/{artifact_id}': 'admin',
  'GET /approvals': 'viewer',
  'GET /approvals/{approval_id}': 'viewer',
  'POST /approvals/{approval_id}/resolve': 'approver',
  'POST /webhooks': 'admin',
  'GET /webhooks': 'viewer',
  'GET /webhooks/{webhook_id}': 'viewer',
  'PATCH /webhooks/{webhook_id}': 'admin',
  'DELETE /webhooks/{webhook_id}': 'admin',
  'POST /webhooks/{webhook_id}/rotate-secret': 'admin',
  'GET /webhooks/{webhook_id}/deliveries': 'viewer',
  'GET /webhooks/{webhook_id}/deliveries/{delivery_id}': 'viewer',
  'POST /webhooks/{webhook_id}/deliveries/{delivery_id}/resend': 'admin',
  'POST /webhooks/{webhook_id}/recover': 'admin',
  'POST /projects': 'operator',
  'GET /projects': 'viewer',
  'GET /projects/{project_id}': 'viewer',
  'PATCH /projects/{project_id}': 'operator',
  'POST /projects/{project_id}/scans': 'operator',
  'GET /projects/{project_id}/scans': 'viewer',
  'GET /projects/{project_id}/findings/{rule_id}/history': 'viewer',
  'GET /scans/{scan_id}': 'viewer',
  'POST /scans/{scan_id}/cancel': 'operator',
  'GET /scans/{scan_id}/findings': 'viewer',
  'GET /scans/{scan_id}/export': 'viewer',
  'GET /findings/{finding_id}': 'viewer',
  'PATCH /findings/{finding_id}': 'operator',
  'GET /settings/retention': 'viewer',
  'PATCH /settings/retention': 'admin',
  'GET /me': 'invitee',
  'GET /me/invitations': 'invitee',
  'POST /me/invitations/{tenant_id}/accept': 'invitee',
  'POST /me/invitations/{tenant_id}/decline': 'invitee',
  'POST /api-keys': 'admin',
  'GET /api-keys': 'admin',
  'DELETE /api-keys/{key_id}': 'admin',
  'GET /members': 'admin',
  'POST /members': 'admin',
  'PATCH /members/{user_id}': 'admin',
  'DELETE /members/{user_id}': 'admin',
  'GET /usage': 'admin',
  'GET /events': 'viewer',
  'GET /events/stream': 'viewer',
};

describe('the route table’s roles', () => {
  it('gives every route the least role the table above expects, and public routes none', () => {
    const actual = Object.fromEntries(routes.map((route) => [`${route.method} ${route.path}`, route.role ?? null]));
    expect(actual).toEqual(EXPECTED);
  });

  it('names a role on every authenticated route and none on a public one', () => {
    for (const route of routes) expect(route.auth === 'none' ? route.role : ROLES.includes(route.role as Role), `${route.method} ${route.path}`).toBe(route.auth === 'none' ? undefined : true);
  });

  it('finds a route’s least role by method and path template, and fails closed on an unknown one', () => {
    expect(leastRoleOf('POST', '/approvals/{approval_id}/resolve')).toBe('approver');
    expect(() => leastRoleOf('GET', '/nowhere')).toThrow(/No role is declared/);
    expect(() => leastRoleOf('GET', '/health')).toThrow(/No role is declared/);
  });
});

describe('allows', () => {
  // Rows: the caller's role; columns: the role a route needs.
  const MATRIX: Record<Role, Record<Role, boolean>> = {
    admin: { admin: true, approver: true, operator: true, viewer: true, agent: false, invitee: true },
    approver: { admin: false, approver: true, operator: false, viewer: true, agent: false, invitee: true },
    operator: { admin: false, approver: false, operator: true, viewer: true, agent: false, invitee: true },
    viewer: { admin: false, approver: false, operator: false, viewer: true, agent: false, invitee: true },
    // An agent key does its agent's protocol and nothing else, and nobody else does the protocol.
    agent: { admin: false, approver: false, operator: false, viewer: false, agent: true, invitee: false },
    // A person of no tenant yet: their own invitations (and GET /me), nothing of any tenant.
    invitee: { admin: false, approver: false, operator: false, viewer: false, agent: false, invitee: true },
  };

  for (const role of ROLES) {
    for (const required of ROLES) {
      it(`${role} ${MATRIX[role][required] ? 'may' : 'may not'} do what needs ${required}`, () => {
        expect(allows(role, required)).toBe(MATRIX[role][required]);
      });
    }
  }
});

describe('docs/api.md roles table', () => {
  it('lists every authenticated route with the role of the route table, and nothing else', () => {
    const reference = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const section = reference.slice(reference.indexOf('\n### Roles\n'));
    const rows = [...section.matchAll(/^\| `(GET|POST|PATCH|DELETE) ([^`]+)` \| `(\w+)` \|$/gm)].map((match) => `${match[1]} ${match[2]} ${match[3]}`);
    const expected = routes.filter((route) => route.role).map((route) => `${route.method} ${route.path} ${route.role}`);
    expect(rows.sort()).toEqual(expected.sort());
  });
});

import type { Contact } from './company';

const seniorityOrder: Contact['seniority'][] = ['c_level', 'vp', 'director', 'manager', 'individual'];
// Who usually owns a buying decision for a B2B product, among people of the same seniority.
const departmentOrder: Contact['department'][] = ['executive', 'engineering', 'data', 'security', 'legal', 'operations', 'sales', 'people'];

/**
 * The contact outreach should start with: most senior, then by department (executive first),
 * then by name, so the choice never depends on the order a source returns contacts in.
 */
export function pickBestContact(contacts: readonly Contact[]): Contact | undefined {
  return [...contacts].sort(
    (a, b) =>
      rank(seniorityOrder, a.seniority) - rank(seniorityOrder, b.seniority) ||
      rank(departmentOrder, a.department) - rank(departmentOrder, b.department) ||
      compare(a.name, b.name) ||
      compare(a.email, b.email),
  )[0];
}

function rank<T>(order: readonly T[], value: T): number {
  const index = order.indexOf(value);
  return index === -1 ? order.length : index;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

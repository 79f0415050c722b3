/** The navigation, in this order and with these names (people and tests find pages by them). */
export const NAV_LINKS = [
  { to: '/agents', label: 'Agents' },
  { to: '/tasks', label: 'Tasks' },
  { to: '/approvals', label: 'Approvals' },
  { to: '/triggers', label: 'Triggers' },
  { to: '/integrations', label: 'Integrations' },
  { to: '/scans', label: 'Scans' },
  { to: '/events', label: 'Events' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/settings', label: 'Settings' },
] as const;

/** The navigation of a person who belongs to no tenant yet (role `invitee`). */
export const INVITEE_LINKS = [{ to: '/invitations', label: 'Invitations' }] as const;

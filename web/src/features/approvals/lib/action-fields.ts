/** An approval's action: its `type` and whatever the action kind carries (`to`, `subject`, `body`). */
export type ApprovalAction = { type: string } & Record<string, unknown>;

/** Who resolved an approval: a person, an API key or a chat user. */
export interface ResolvedBy {
  type: string;
  id: string;
}

/** The action's text fields a person may edit, in a useful order (to, subject, then the rest, body last). */
export function editableFields(action: ApprovalAction): string[] {
  const order = (key: string) => (key === 'to' ? 0 : key === 'subject' ? 1 : key === 'body' ? 3 : 2);
  return Object.keys(action)
    .filter((key) => key !== 'type' && typeof action[key] === 'string')
    .sort((a, b) => order(a) - order(b));
}

/** Whether the action has a body a person can edit before approving (the `Edit` button). */
export function hasEditableBody(action: ApprovalAction): boolean {
  return typeof action.body === 'string';
}

/** The action to approve instead: the agent's, with the edited text fields replaced; the type never changes. */
export function modifiedAction(action: ApprovalAction, edits: Record<string, string>): ApprovalAction {
  const next: ApprovalAction = { ...action, type: action.type };
  for (const key of editableFields(action)) if (edits[key] !== undefined) next[key] = edits[key];
  return next;
}

/** Whether any edited text differs from the action's own. */
export function isChanged(action: ApprovalAction, edits: Record<string, string>): boolean {
  return editableFields(action).some((key) => edits[key] !== undefined && edits[key] !== action[key]);
}

/** A field name as a label: `subject` → "Subject", `to` → "To". */
export function fieldLabel(key: string): string {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

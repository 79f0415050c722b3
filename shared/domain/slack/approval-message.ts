/**
 * An approval as Slack shows it: the channel message with its Approve / Deny / Edit buttons, and
 * the modal that edits a mail before approving it. Pure Block Kit JSON; posting is the caller's.
 *
 * Everything an agent wrote (title, description, action fields) is untrusted: mrkdwn text is
 * escaped, so an agent cannot mention `@channel` or dress up a link, and every text is cut to
 * Block Kit's limits, so a huge body cannot make Slack refuse the whole message.
 */

/** Block Kit's limits for what we build (UTF-16 units, which never undercount Slack's characters). */
export const BLOCK_KIT_LIMITS = {
  header: 150,
  sectionText: 3000,
  sectionField: 2000,
  contextText: 3000,
  buttonText: 75,
  buttonValue: 2000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  inputLabel: 2000,
  inputInitial: 3000,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3000,
} as const;

/** Where Slack reports which button was pressed; the interaction parser matches on it. */
export const APPROVAL_ACTIONS_BLOCK_ID = 'gatehouse_approval';
/** The buttons' `action_id`s. */
export const APPROVAL_ACTION_IDS = { approve: 'approve', deny: 'deny', edit: 'edit' } as const;
/** The edit modal's `callback_id`, echoed back in its `view_submission`. */
export const EDIT_CALLBACK_ID = 'gatehouse_edit';
/** The edit modal's inputs; each is both the input block's `block_id` and its element's `action_id`. */
export const EDIT_FIELDS = ['to', 'subject', 'body'] as const;
export type EditField = (typeof EDIT_FIELDS)[number];

/** The ephemeral answer to someone who pressed a button without being an approver. */
export const notAllowedText = 'You are not allowed to decide this approval.';

/** Who decided, as `renderApproval` gives it, plus the chat principal Slack decisions record. */
export interface ApprovalDecider {
  type: 'user' | 'api_key' | 'chat';
  id?: string;
  name?: string;
  email?: string;
  /** The Slack user id, for `type: 'chat'`. */
  user_id?: string;
}

/** The fields of a rendered approval (`renderApproval`) that the message shows. */
export interface SlackApproval {
  approval_id: string;
  task_id: string;
  agent: string;
  title: string;
  description: string;
  action: { type: string } & Record<string, unknown>;
  status: 'pending' | 'approved' | 'denied';
  created_at: string;
  expires_at: string;
  decision?: 'approved' | 'denied';
  resolution?: 'resolved' | 'expired';
  resolved_at?: string;
  resolved_by?: ApprovalDecider;
  comment?: string;
}

// The Block Kit subset these builders emit, typed here so the domain needs no Slack SDK; the tests
// check it against @slack/web-api's own types.
export interface PlainText {
  type: 'plain_text';
  text: string;
}
export interface Mrkdwn {
  type: 'mrkdwn';
  text: string;
}
export interface Button {
  type: 'button';
  action_id: string;
  text: PlainText;
  value: string;
  style?: 'primary' | 'danger';
  confirm?: { title: PlainText; text: PlainText; confirm: PlainText; deny: PlainText; style?: 'primary' | 'danger' };
}
export interface PlainTextInput {
  type: 'plain_text_input';
  action_id: string;
  initial_value?: string;
  multiline?: boolean;
  max_length?: number;
}
export type SlackBlock =
  | { type: 'header'; text: PlainText }
  | { type: 'section'; text?: Mrkdwn; fields?: Mrkdwn[] }
  | { type: 'context'; elements: Mrkdwn[] }
  | { type: 'actions'; block_id: string; elements: Button[] }
  | { type: 'input'; block_id: string; label: PlainText; element: PlainTextInput };

/** Arguments for `chat.postMessage` / `chat.update`: `text` is the notification and screen-reader fallback. */
export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

/** The `view` argument of `views.open`. */
export interface SlackModal {
  type: 'modal';
  callback_id: string;
  private_metadata: string;
  title: PlainText;
  submit: PlainText;
  close: PlainText;
  blocks: SlackBlock[];
}

export interface ApprovalMessageOptions {
  /** The dashboard's base URL (the stack's DashboardUrl); the message links to the approval's page there. */
  dashboardUrl?: string;
}

/** The channel message for an approval: buttons while pending, who decided once it is not. */
export function approvalMessage(approval: SlackApproval, options: ApprovalMessageOptions = {}): SlackMessage {
  const blocks: SlackBlock[] = [{ type: 'header', text: plain(approval.title.trim() || 'Approval requested', BLOCK_KIT_LIMITS.header) }];
  if (approval.description.trim() !== '') blocks.push({ type: 'section', text: mrkdwn(escaped(approval.description, BLOCK_KIT_LIMITS.sectionText)) });
  blocks.push({
    type: 'section',
    fields: [
      mrkdwn(`*Agent*\n${escaped(approval.agent, BLOCK_KIT_LIMITS.sectionField - 10)}`),
      mrkdwn(`*Task*\n${escaped(approval.task_id, BLOCK_KIT_LIMITS.sectionField - 10)}`),
      mrkdwn(`*Expires*\n${slackDate(approval.expires_at)}`),
    ],
  });
  blocks.push(...actionBlocks(approval.action));
  blocks.push(approval.status === 'pending' ? buttons(approval) : outcome(approval));
  const link = dashboardLink(approval.approval_id, options.dashboardUrl);
  if (link) blocks.push({ type: 'context', elements: [mrkdwn(`<${link}|Open in Gatehouse>`)] });
  return { text: escaped(`${headline(approval)}: ${approval.title}`, BLOCK_KIT_LIMITS.sectionText), blocks };
}

/**
 * Whether the edit modal can hold the action without cutting it: a string body, and every field
 * the modal shows a string that fits an input. Approving a cut-short body would send it cut short,
 * so the Edit button (and the handler opening the modal) rely on this.
 */
export function canEditInSlack(action: SlackApproval['action']): boolean {
  if (typeof action.body !== 'string') return false;
  return EDIT_FIELDS.every((field) => action[field] === undefined || (typeof action[field] === 'string' && (action[field] as string).length <= BLOCK_KIT_LIMITS.inputInitial));
}

/** The `views.open` modal that edits the action's fields; submitting approves the edited action. */
export function editModal(approval: SlackApproval): SlackModal {
  const fields = EDIT_FIELDS.filter((field) => field === 'body' || typeof approval.action[field] === 'string');
  const blocks: SlackBlock[] = [{ type: 'section', text: mrkdwn(`*${escaped(approval.title.trim() || 'Approval requested', BLOCK_KIT_LIMITS.sectionText - 2)}*`) }];
  if (!canEditInSlack(approval.action)) {
    blocks.push({ type: 'context', elements: [mrkdwn('⚠️ This action is too long to edit in Slack; it is shown cut short. Edit it in Gatehouse instead.')] });
  }
  for (const field of fields) {
    const initial = typeof approval.action[field] === 'string' ? clip(approval.action[field] as string, BLOCK_KIT_LIMITS.inputInitial) : '';
    blocks.push({
      type: 'input',
      block_id: field,
      label: plain(LABELS[field], BLOCK_KIT_LIMITS.inputLabel),
      element: {
        type: 'plain_text_input',
        action_id: field,
        max_length: BLOCK_KIT_LIMITS.inputInitial,
        ...(field === 'body' ? { multiline: true } : {}),
        // Slack refuses an empty initial_value; leaving it out shows an empty input.
        ...(initial !== '' ? { initial_value: initial } : {}),
      },
    });
  }
  return {
    type: 'modal',
    callback_id: EDIT_CALLBACK_ID,
    private_metadata: clip(approval.approval_id, BLOCK_KIT_LIMITS.privateMetadata),
    title: plain('Edit and approve', BLOCK_KIT_LIMITS.modalTitle),
    submit: plain('Approve with changes', BLOCK_KIT_LIMITS.modalButton),
    close: plain('Cancel', BLOCK_KIT_LIMITS.modalButton),
    blocks,
  };
}

const LABELS: Record<EditField, string> = { to: 'To', subject: 'Subject', body: 'Body' };
const CODE_FENCE = '```';

function actionBlocks(action: SlackApproval['action']): SlackBlock[] {
  if (action.type === 'mail.send') {
    return [
      {
        type: 'section',
        fields: [
          mrkdwn(`*To*\n${escaped(display(action.to), BLOCK_KIT_LIMITS.sectionField - 10)}`),
          mrkdwn(`*Subject*\n${escaped(display(action.subject), BLOCK_KIT_LIMITS.sectionField - 20)}`),
        ],
      },
      { type: 'section', text: mrkdwn(codeBlock(display(action.body))) },
    ];
  }
  const { type, ...fields } = action;
  const heading = `*Action* ${escaped(type, 200)}`;
  const detail = Object.keys(fields).length > 0 ? `\n${codeBlock(JSON.stringify(fields, null, 2), BLOCK_KIT_LIMITS.sectionText - heading.length - 1)}` : '';
  return [{ type: 'section', text: mrkdwn(`${heading}${detail}`) }];
}

function buttons(approval: SlackApproval): SlackBlock {
  const value = clip(approval.approval_id, BLOCK_KIT_LIMITS.buttonValue);
  const elements: Button[] = [
    { type: 'button', action_id: APPROVAL_ACTION_IDS.approve, text: plain('Approve', BLOCK_KIT_LIMITS.buttonText), style: 'primary', value },
    {
      type: 'button',
      action_id: APPROVAL_ACTION_IDS.deny,
      text: plain('Deny', BLOCK_KIT_LIMITS.buttonText),
      style: 'danger',
      value,
      confirm: {
        title: plain('Deny this action?', BLOCK_KIT_LIMITS.confirmTitle),
        text: plain(`The agent will not ${approval.action.type === 'mail.send' ? 'send this email' : 'run this action'}.`, BLOCK_KIT_LIMITS.confirmText),
        confirm: plain('Deny', BLOCK_KIT_LIMITS.confirmButton),
        deny: plain('Cancel', BLOCK_KIT_LIMITS.confirmButton),
        style: 'danger',
      },
    },
  ];
  if (canEditInSlack(approval.action)) elements.push({ type: 'button', action_id: APPROVAL_ACTION_IDS.edit, text: plain('Edit', BLOCK_KIT_LIMITS.buttonText), value });
  return { type: 'actions', block_id: APPROVAL_ACTIONS_BLOCK_ID, elements };
}

function outcome(approval: SlackApproval): SlackBlock {
  const at = slackDate(approval.resolved_at ?? approval.expires_at);
  const line =
    approval.resolution === 'expired'
      ? `⌛ Expired at ${at}`
      : `${approval.decision === 'approved' || approval.status === 'approved' ? '✅ Approved' : '❌ Denied'}${approval.resolved_by ? ` by ${who(approval.resolved_by)}` : ''} at ${at}`;
  const elements = [mrkdwn(line)];
  if (approval.comment) elements.push(mrkdwn(`“${escaped(approval.comment, BLOCK_KIT_LIMITS.contextText - 2)}”`));
  return { type: 'context', elements };
}

function headline(approval: SlackApproval): string {
  if (approval.status === 'pending') return 'Approval needed';
  if (approval.resolution === 'expired') return 'Expired';
  return approval.status === 'approved' ? 'Approved' : 'Denied';
}

function who(decider: ApprovalDecider): string {
  if (decider.type === 'api_key') return 'an API key';
  // A Slack user id renders as a mention; anything else is shown as text, never as markup.
  if (decider.type === 'chat' && decider.user_id && /^[UW][A-Z0-9]{2,20}$/.test(decider.user_id)) return `<@${decider.user_id}>`;
  return escaped(decider.email ?? decider.name ?? decider.user_id ?? decider.id ?? 'someone', 320);
}

/** Slack's date token shows the time in each reader's zone; the ISO string is the fallback. */
function slackDate(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return escaped(iso, 100);
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} at {time}|${new Date(ms).toISOString()}>`;
}

function dashboardLink(approvalId: string, dashboardUrl: string | undefined): string | undefined {
  if (!dashboardUrl) return undefined;
  let url: URL;
  try {
    url = new URL(`approvals/${encodeURIComponent(approvalId)}`, dashboardUrl.endsWith('/') ? dashboardUrl : `${dashboardUrl}/`);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  // `|` and `>` end a Slack link; `&` must be escaped like any mrkdwn text.
  const href = url.href.replace(/\|/g, '%7C').replace(/>/g, '%3E').replace(/&/g, '&amp;').replace(/</g, '%3C');
  return href.length <= 1000 ? href : undefined;
}

function display(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined ? '' : JSON.stringify(value);
}

/** A code block fitting `max`: the text inside cut as needed, a fence in the text broken so it cannot close the block. */
function codeBlock(text: string, max: number = BLOCK_KIT_LIMITS.sectionText): string {
  if (text === '') return '_(empty)_';
  const defused = text.replace(/`{3,}/g, (run) => run.split('').join('\u200b'));
  return `${CODE_FENCE}\n${escaped(defused, max - 2 * CODE_FENCE.length - 2)}\n${CODE_FENCE}`;
}

function plain(text: string, max: number): PlainText {
  return { type: 'plain_text', text: clip(text, max) };
}

function mrkdwn(text: string): Mrkdwn {
  return { type: 'mrkdwn', text };
}

/** `text` escaped for mrkdwn (`&`, `<`, `>`) and cut to `max`, never through an entity. */
function escaped(text: string, max: number): string {
  const escapedText = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (escapedText.length <= max) return escapedText;
  let end = max - 1;
  const amp = escapedText.lastIndexOf('&', end - 1);
  if (amp !== -1 && escapedText.indexOf(';', amp) >= end) end = amp;
  return cutAt(escapedText, end);
}

/** `text` cut to `max` UTF-16 units, ending in "…" when cut. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : cutAt(text, max - 1);
}

function cutAt(text: string, end: number): string {
  // Never leave half a surrogate pair behind.
  const code = text.charCodeAt(end - 1);
  const safeEnd = code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
  return `${text.slice(0, safeEnd)}…`;
}

import type { ChatUpdateArguments, ViewsOpenArguments } from '@slack/web-api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderApproval, type Approval } from '#shared/domain/approval';
import {
  APPROVAL_ACTIONS_BLOCK_ID,
  BLOCK_KIT_LIMITS,
  EDIT_CALLBACK_ID,
  EDIT_FIELDS,
  approvalMessage,
  canEditInSlack,
  editModal,
  notAllowedText,
  type Button,
  type SlackApproval,
  type SlackBlock,
  type SlackMessage,
  type SlackModal,
} from '#shared/domain/slack/approval-message';

const now = new Date('2025-03-01T10:00:00.000Z');

const stored: Approval = {
  approval_id: 'apr_01JNEXAMPLE',
  tenant_id: 'ten_1',
  task_id: 'tsk_01JNEXAMPLE',
  agent: 'outreach',
  step: 3,
  title: 'Send the follow-up email',
  description: 'The agent drafted a reply to the customer.',
  action: { type: 'mail.send', to: 'ada@example.com', subject: 'Your order', body: 'Hello Ada,\n\nYour order shipped.' },
  status: 'pending',
  created_at: '2025-03-01T09:00:00.000Z',
  expires_at: '2025-03-02T09:00:00.000Z',
};

/** An approval exactly as the service renders it. */
function rendered(overrides: Partial<Approval> = {}): SlackApproval {
  return renderApproval({ ...stored, ...overrides }, now);
}

const decidedAt = '2025-03-01T10:30:00.000Z';
const decidedAtToken = `<!date^${Date.parse(decidedAt) / 1000}^{date_short_pretty} at {time}|${decidedAt}>`;

function actionsOf(message: SlackMessage): Button[] {
  return message.blocks.flatMap((block) => (block.type === 'actions' ? block.elements : []));
}

function texts(blocks: SlackBlock[]): string[] {
  return blocks.flatMap((block) => {
    switch (block.type) {
      case 'header':
        return [block.text.text];
      case 'section':
        return [...(block.text ? [block.text.text] : []), ...(block.fields ?? []).map((field) => field.text)];
      case 'context':
        return block.elements.map((element) => element.text);
      case 'actions':
        return block.elements.flatMap((button) => [button.text.text, button.value]);
      case 'input':
        return [block.label.text, block.element.initial_value ?? ''];
    }
  });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every Block Kit limit the builders promise, checked on what they built. */
function blockKitViolations(blocks: SlackBlock[], maxBlocks: number): string[] {
  const problems: string[] = [];
  const within = (what: string, text: string, max: number) => {
    if (text.length < 1 || text.length > max) problems.push(`${what}: length ${text.length} not in 1..${max}`);
    if (LONE_SURROGATE.test(text)) problems.push(`${what}: half a surrogate pair`);
  };
  if (blocks.length > maxBlocks) problems.push(`${blocks.length} blocks`);
  for (const [index, block] of blocks.entries()) {
    const at = `block ${index} (${block.type})`;
    if ('block_id' in block) within(`${at} block_id`, block.block_id, 255);
    switch (block.type) {
      case 'header':
        within(at, block.text.text, BLOCK_KIT_LIMITS.header);
        break;
      case 'section':
        if (!block.text && !block.fields) problems.push(`${at}: neither text nor fields`);
        if (block.text) within(at, block.text.text, BLOCK_KIT_LIMITS.sectionText);
        if (block.fields && block.fields.length > 10) problems.push(`${at}: ${block.fields.length} fields`);
        for (const field of block.fields ?? []) within(`${at} field`, field.text, BLOCK_KIT_LIMITS.sectionField);
        break;
      case 'context':
        if (block.elements.length < 1 || block.elements.length > 10) problems.push(`${at}: ${block.elements.length} elements`);
        for (const element of block.elements) within(`${at} element`, element.text, BLOCK_KIT_LIMITS.contextText);
        break;
      case 'actions':
        if (block.elements.length < 1 || block.elements.length > 25) problems.push(`${at}: ${block.elements.length} elements`);
        for (const button of block.elements) {
          within(`${at} button text`, button.text.text, BLOCK_KIT_LIMITS.buttonText);
          within(`${at} button value`, button.value, BLOCK_KIT_LIMITS.buttonValue);
          within(`${at} action_id`, button.action_id, 255);
          if (button.confirm) {
            within(`${at} confirm title`, button.confirm.title.text, BLOCK_KIT_LIMITS.confirmTitle);
            within(`${at} confirm text`, button.confirm.text.text, BLOCK_KIT_LIMITS.confirmText);
            within(`${at} confirm button`, button.confirm.confirm.text, BLOCK_KIT_LIMITS.confirmButton);
            within(`${at} deny button`, button.confirm.deny.text, BLOCK_KIT_LIMITS.confirmButton);
          }
        }
        break;
      case 'input': {
        within(`${at} label`, block.label.text, BLOCK_KIT_LIMITS.inputLabel);
        within(`${at} action_id`, block.element.action_id, 255);
        const initial = block.element.initial_value;
        if (initial !== undefined) within(`${at} initial_value`, initial, Math.min(BLOCK_KIT_LIMITS.inputInitial, block.element.max_length ?? Infinity));
        break;
      }
    }
  }
  return problems;
}

function messageViolations(message: SlackMessage): string[] {
  const problems = blockKitViolations(message.blocks, 50);
  if (message.text.length < 1 || message.text.length > 40_000) problems.push(`text: length ${message.text.length}`);
  return problems;
}

function modalViolations(modal: SlackModal): string[] {
  const problems = blockKitViolations(modal.blocks, 100);
  for (const [what, text] of [['title', modal.title.text], ['submit', modal.submit.text], ['close', modal.close.text]] as const) {
    if (text.length < 1 || text.length > BLOCK_KIT_LIMITS.modalTitle) problems.push(`${what}: length ${text.length}`);
  }
  if (modal.private_metadata.length > BLOCK_KIT_LIMITS.privateMetadata) problems.push('private_metadata too long');
  return problems;
}

describe('approval message while pending', () => {
  it('shows the request and the email, with Approve, Deny (confirmed) and Edit, each carrying the approval id', () => {
    const message = approvalMessage(rendered());

    const buttons = actionsOf(message);
    expect(message.blocks.find((block) => block.type === 'actions')).toMatchObject({ block_id: APPROVAL_ACTIONS_BLOCK_ID });
    expect(buttons.map((button) => [button.action_id, button.text.text, button.style])).toEqual([
      ['approve', 'Approve', 'primary'],
      ['deny', 'Deny', 'danger'],
      ['edit', 'Edit', undefined],
    ]);
    expect(buttons.every((button) => button.value === stored.approval_id)).toBe(true);
    expect(buttons[1].confirm).toMatchObject({ confirm: { text: 'Deny' }, deny: { text: 'Cancel' } });
    expect(message.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Send the follow-up email' } });
    const shown = texts(message.blocks).join('\n');
    for (const expected of ['The agent drafted a reply', '*Agent*\noutreach', stored.task_id, '*To*\nada@example.com', '*Subject*\nYour order', '```\nHello Ada,\n\nYour order shipped.\n```']) {
      expect(shown).toContain(expected);
    }
    expect(shown).toContain(`<!date^${Date.parse(stored.expires_at) / 1000}^{date_short_pretty} at {time}|${stored.expires_at}>`);
    expect(message.text).toBe('Approval needed: Send the follow-up email');
    expect(messageViolations(message)).toEqual([]);
  });

  it('offers Edit only for an action with a body', () => {
    const withoutBody = approvalMessage(rendered({ action: { type: 'github.merge', repository: 'acme/api', pull_request: 42 } }));
    const otherWithBody = approvalMessage(rendered({ action: { type: 'github.comment', issue: 7, body: 'Fixed in #42.' } }));

    expect(actionsOf(withoutBody).map((button) => button.action_id)).toEqual(['approve', 'deny']);
    expect(actionsOf(otherWithBody).map((button) => button.action_id)).toEqual(['approve', 'deny', 'edit']);
    expect(texts(withoutBody.blocks).join('\n')).toContain('*Action* github.merge\n```\n{\n  "repository": "acme/api",\n  "pull_request": 42\n}\n```');
  });

  it('offers no Edit when the body is longer than a Slack input holds, since approving would send it cut short', () => {
    const action = { ...stored.action, body: 'x'.repeat(BLOCK_KIT_LIMITS.inputInitial + 1) };

    const message = approvalMessage(rendered({ action }));

    expect(canEditInSlack(action)).toBe(false);
    expect(canEditInSlack({ ...action, body: 'x'.repeat(BLOCK_KIT_LIMITS.inputInitial) })).toBe(true);
    expect(actionsOf(message).map((button) => button.action_id)).toEqual(['approve', 'deny']);
  });

  it('cuts a huge body, title, description and recipient to Block Kit limits with an ellipsis', () => {
    const huge = 'A'.repeat(100_000);
    const approval = rendered({ title: huge, description: huge, action: { type: 'mail.send', to: huge, subject: huge, body: huge } });

    const message = approvalMessage(approval);

    expect(messageViolations(message)).toEqual([]);
    const header = message.blocks[0];
    expect(header.type === 'header' && header.text.text).toBe(`${'A'.repeat(149)}…`);
    const bodySection = message.blocks.find((block) => block.type === 'section' && block.text?.text.startsWith('```'));
    expect(bodySection?.type === 'section' && bodySection.text?.text).toBe(`\`\`\`\n${'A'.repeat(BLOCK_KIT_LIMITS.sectionText - 9)}…\n\`\`\``);
  });

  it('escapes what the agent wrote, so it cannot mention the channel, forge a link or close the code block', () => {
    const approval = rendered({
      title: 'Deploy <!channel>',
      description: 'Click <https://evil.example|here> & <@U999>',
      action: { type: 'mail.send', to: 'a@example.com', subject: 'Hi <!here>', body: 'before ``` after <!everyone>' },
    });

    const message = approvalMessage(approval);
    // The header is plain_text, which Slack shows as written and never parses into mentions.
    const shown = texts(message.blocks.slice(1)).join('\n');

    expect(message.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Deploy <!channel>' } });
    expect(`${shown}\n${message.text}`).not.toMatch(/<(?!!date\^)[!@#]|<https?:/);
    expect(message.text).toBe('Approval needed: Deploy &lt;!channel&gt;');
    expect(shown).toContain('Click &lt;https://evil.example|here&gt; &amp; &lt;@U999&gt;');
    expect(shown).toContain('```\nbefore `\u200b`\u200b` after &lt;!everyone&gt;\n```');
  });

  it('never cuts through an escape or a surrogate pair', () => {
    const approval = rendered({ description: `${'x'.repeat(BLOCK_KIT_LIMITS.sectionText - 3)}&&&&`, title: `${'y'.repeat(148)}😀😀` });

    const message = approvalMessage(approval);

    const description = message.blocks[1];
    expect(description.type === 'section' && description.text?.text).toBe(`${'x'.repeat(BLOCK_KIT_LIMITS.sectionText - 3)}…`);
    const header = message.blocks[0];
    expect(header.type === 'header' && header.text.text).toBe(`${'y'.repeat(148)}…`);
  });

  it('links to the approval in the dashboard when given its URL, and ignores a URL that is not http(s)', () => {
    const linked = approvalMessage(rendered(), { dashboardUrl: 'https://gatehouse.example.com' });
    const ignored = approvalMessage(rendered(), { dashboardUrl: 'javascript:alert(1)' });

    expect(linked.blocks.at(-1)).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: '<https://gatehouse.example.com/approvals/apr_01JNEXAMPLE|Open in Gatehouse>' }] });
    expect(ignored.blocks).toEqual(approvalMessage(rendered()).blocks);
  });
});

describe('approval message once decided', () => {
  it('names the Slack user who approved, with no buttons left', () => {
    const approval: SlackApproval = {
      ...rendered({ status: 'approved', decision: 'approved', resolution: 'resolved', resolved_at: decidedAt }),
      resolved_by: { type: 'chat', user_id: 'U123ABC' },
      comment: 'Looks good',
    };

    const message = approvalMessage(approval);

    expect(actionsOf(message)).toEqual([]);
    expect(message.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: `✅ Approved by <@U123ABC> at ${decidedAtToken}` },
        { type: 'mrkdwn', text: '“Looks good”' },
      ],
    });
    expect(message.text).toBe('Approved: Send the follow-up email');
    expect(messageViolations(message)).toEqual([]);
  });

  it('names a dashboard user by email or name, and an API key as such', () => {
    const denied = rendered({ status: 'denied', decision: 'denied', resolution: 'resolved', resolved_at: decidedAt, resolved_by: { type: 'user', id: 'usr_1', name: 'grace@example.com' } });
    const byEmail: SlackApproval = { ...denied, resolved_by: { type: 'user', id: 'usr_1', email: 'ada@example.com', name: 'Ada' } };
    const byKey = rendered({ status: 'approved', decision: 'approved', resolution: 'resolved', resolved_at: decidedAt, resolved_by: { type: 'api_key', id: 'key_1', name: 'ci' } });

    expect(approvalMessage(denied).blocks.at(-1)).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: `❌ Denied by grace@example.com at ${decidedAtToken}` }] });
    expect(texts(approvalMessage(byEmail).blocks)).toContain(`❌ Denied by ada@example.com at ${decidedAtToken}`);
    expect(texts(approvalMessage(byKey).blocks)).toContain(`✅ Approved by an API key at ${decidedAtToken}`);
    expect(actionsOf(approvalMessage(denied))).toEqual([]);
  });

  it('shows an approval past its expiry as expired, without buttons', () => {
    const expired = renderApproval(stored, new Date('2025-03-03T00:00:00.000Z'));

    const message = approvalMessage(expired);

    expect(actionsOf(message)).toEqual([]);
    expect(message.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `⌛ Expired at <!date^${Date.parse(stored.expires_at) / 1000}^{date_short_pretty} at {time}|${stored.expires_at}>` }],
    });
    expect(message.text).toBe('Expired: Send the follow-up email');
  });

  it('shows a chat user id that is not a Slack id as text, not as a mention', () => {
    const approval: SlackApproval = { ...rendered({ status: 'approved', decision: 'approved', resolution: 'resolved', resolved_at: decidedAt }), resolved_by: { type: 'chat', user_id: '<!channel>' } };

    expect(texts(approvalMessage(approval).blocks)).toContain(`✅ Approved by &lt;!channel&gt; at ${decidedAtToken}`);
  });
});

describe('edit modal', () => {
  it('opens with the email in to, subject and body inputs, and submits as "Approve with changes"', () => {
    const modal = editModal(rendered());

    expect(modal).toMatchObject({
      type: 'modal',
      callback_id: EDIT_CALLBACK_ID,
      private_metadata: stored.approval_id,
      submit: { type: 'plain_text', text: 'Approve with changes' },
      close: { type: 'plain_text', text: 'Cancel' },
    });
    const inputs = modal.blocks.flatMap((block) => (block.type === 'input' ? [block] : []));
    expect(inputs.map((input) => [input.block_id, input.element.action_id, input.element.initial_value, input.element.multiline ?? false])).toEqual([
      ['to', 'to', 'ada@example.com', false],
      ['subject', 'subject', 'Your order', false],
      ['body', 'body', 'Hello Ada,\n\nYour order shipped.', true],
    ]);
    expect(inputs.map((input) => input.block_id)).toEqual([...EDIT_FIELDS]);
    expect(modalViolations(modal)).toEqual([]);
  });

  it('has only a body input for another action with a body, and leaves an empty body out of initial_value', () => {
    const modal = editModal(rendered({ action: { type: 'github.comment', issue: 7, body: '' } }));

    const inputs = modal.blocks.flatMap((block) => (block.type === 'input' ? [block] : []));
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({ block_id: 'body', element: { type: 'plain_text_input', multiline: true } });
    expect(inputs[0].element).not.toHaveProperty('initial_value');
  });

  it('cuts a body too long for an input, and says so above the inputs', () => {
    const modal = editModal(rendered({ action: { ...stored.action, body: 'b'.repeat(10_000) } }));

    expect(modalViolations(modal)).toEqual([]);
    const body = modal.blocks.find((block) => block.type === 'input' && block.block_id === 'body');
    expect(body?.type === 'input' && body.element.initial_value).toBe(`${'b'.repeat(BLOCK_KIT_LIMITS.inputInitial - 1)}…`);
    expect(texts(modal.blocks).join('\n')).toContain('too long to edit in Slack');
  });
});

describe('what Slack is sent', () => {
  it('has the shapes @slack/web-api types for chat.update and views.open', () => {
    const message = approvalMessage(rendered(), { dashboardUrl: 'https://gatehouse.example.com/' });

    // Compile-time checks: the builders' JSON is what the Slack client accepts.
    const update: ChatUpdateArguments = { channel: 'C123', ts: '1700000000.000100', ...message };
    const open: ViewsOpenArguments = { trigger_id: '123.456.abc', view: editModal(rendered()) };

    expect(update).toMatchObject({ channel: 'C123', text: message.text });
    expect(open.view.type).toBe('modal');
    expect(notAllowedText).toBe('You are not allowed to decide this approval.');
  });

  it('keeps every message and modal within Block Kit limits, whatever the agent wrote and whoever decided', () => {
    const text = fc.string({ maxLength: 5000, unit: fc.constantFrom('a', '&', '<', '>', '`', '😀', '\n', ' ', 'é') });
    const decider = fc.oneof(
      fc.record({ type: fc.constant('chat' as const), user_id: fc.string() }),
      fc.record({ type: fc.constant('user' as const), id: fc.string(), name: fc.option(text, { nil: undefined }) }),
      fc.record({ type: fc.constant('api_key' as const), id: fc.string() }),
    );
    const approval = fc.record({
      title: text,
      description: text,
      agent: fc.string({ minLength: 1, maxLength: 3000 }),
      action: fc.oneof(
        fc.record({ type: fc.constant('mail.send'), to: text, subject: text, body: text }),
        fc.record({ type: fc.string({ minLength: 1, maxLength: 300 }), payload: fc.jsonValue() }),
      ),
      outcome: fc.constantFrom('pending', 'approved', 'denied', 'expired'),
      decider,
      comment: fc.option(text, { nil: undefined }),
    });

    fc.assert(
      fc.property(approval, (generated) => {
        const base = rendered({ title: generated.title, description: generated.description, agent: generated.agent, action: generated.action });
        const subject: SlackApproval =
          generated.outcome === 'pending'
            ? base
            : {
                ...base,
                status: generated.outcome === 'approved' ? 'approved' : 'denied',
                decision: generated.outcome === 'approved' ? 'approved' : 'denied',
                resolution: generated.outcome === 'expired' ? 'expired' : 'resolved',
                resolved_at: decidedAt,
                ...(generated.outcome === 'expired' ? {} : { resolved_by: generated.decider }),
                ...(generated.comment !== undefined ? { comment: generated.comment } : {}),
              };

        const message = approvalMessage(subject, { dashboardUrl: 'https://gatehouse.example.com' });

        expect(messageViolations(message)).toEqual([]);
        expect(actionsOf(message).length > 0).toBe(generated.outcome === 'pending');
        if ('body' in generated.action) expect(modalViolations(editModal(subject))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

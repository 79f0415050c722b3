import MailComposer from 'nodemailer/lib/mail-composer';
import { beforeAll, describe, expect, it } from 'vitest';
import { triggerRepository } from '#shared/adapters/dynamodb/trigger-repository';
import { InboundMailTooLargeError } from '#shared/adapters/mail/inbound-store';
import { inboundMailDomain, MAX_INBOUND_MAIL_BYTES } from '#shared/config/inbound-mail';
import { deployAgent } from '#shared/services/agents';
import { receiveInboundMail } from '#shared/services/mail-triggers';
import { createTrigger } from '#shared/services/trigger-admin';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

const audit = { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' }, priority: 'normal' as const };

async function mailTrigger() {
  const tenant = uniqueTenant();
  await deployAgent(tenant, { agent_slug: 'ai-readiness' });
  const trigger = await createTrigger(tenant, { name: 'by mail', source: { type: 'mail' }, task: audit, enabled: true });
  return { tenant, trigger, address: (trigger.source as { address: string }).address };
}

describe('the inbound mail receiver (SES receiving on AWS, the SMTP listener locally)', () => {
  beforeAll(async () => {
    await provisionForTest('inbound-mail-receiver');
  });

  it('looks the recipient up first: mail for no trigger is never read', async () => {
    let reads = 0;

    const runs = await receiveInboundMail([`t-nosuchtrigger2345678@${inboundMailDomain()}`, 'ceo@elsewhere.example'], async () => {
      reads += 1;
      return Buffer.from('<script>'.repeat(60_000));
    });

    expect(runs).toEqual([]);
    expect(reads).toBe(0);
  });

  it('records a failed run, without parsing or throwing (no SES retry), for a stored message over 10 MiB', async () => {
    const { tenant, trigger, address } = await mailTrigger();

    const runs = await receiveInboundMail([address], async () => {
      throw new InboundMailTooLargeError(MAX_INBOUND_MAIL_BYTES + 1);
    });

    expect(runs).toMatchObject([{ trigger_id: trigger.trigger_id, outcome: 'failed', reason: expect.stringContaining(`${MAX_INBOUND_MAIL_BYTES} bytes`) }]);
    const { runs: stored } = await triggerRepository.listRuns(tenant, trigger.trigger_id, 10);
    expect(stored.map((run) => run.outcome)).toEqual(['failed']);
  });

  it('refuses an oversized message the loader handed over anyway', async () => {
    const { trigger, address } = await mailTrigger();
    const raw = await new MailComposer({ from: 'grace@customer.example', to: address, subject: 'big', text: 'x'.repeat(MAX_INBOUND_MAIL_BYTES) }).compile().build();

    const runs = await receiveInboundMail([address], async () => raw);

    expect(runs).toMatchObject([{ trigger_id: trigger.trigger_id, outcome: 'failed' }]);
  });
});

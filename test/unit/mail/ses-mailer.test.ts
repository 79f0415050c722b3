import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { SesMailer } from '#shared/adapters/mail/ses-mailer';
import { InvalidOutboundEmailError, type OutboundEmail } from '#shared/domain/mailer';
import { addresses, parseEmail } from './parse-email';

const ses = mockClient(SESv2Client);
const client = new SESv2Client({ region: 'eu-west-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });

const message: OutboundEmail = {
  from: 'Gatehouse <outreach@gatehouse.example>',
  to: 'tomas.lopez@xylomarket.example',
  subject: 'Grüße, Tomas: an idea for Xylo Market',
  body: 'Hi Tomas,\n\nWould you be open to a quick chat?\n\nBest,\nJordan\n',
  idempotencyKey: 'apr_ses_1',
};

beforeEach(() => {
  ses.reset();
});

afterAll(() => {
  ses.restore();
});

describe('SesMailer', () => {
  it('sends the composed message raw, and the raw data parses back to the same message', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: '0100018f-ses-id' });

    const result = await new SesMailer(() => client).send(message);

    expect(result).toEqual({ message_id: '0100018f-ses-id' });
    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0].args[0].input;
    expect(input.FromEmailAddress).toBe(message.from);
    expect(input.Destination).toEqual({ ToAddresses: [message.to] });
    expect(input.Content?.Simple).toBeUndefined();
    const parsed = await parseEmail(input.Content!.Raw!.Data!);
    expect(parsed.from?.value).toEqual([{ name: 'Gatehouse', address: 'outreach@gatehouse.example' }]);
    expect(addresses(parsed.to)).toEqual([message.to]);
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.text).toBe(message.body);
    expect(parsed.messageId).toBe('<apr_ses_1@gatehouse.local>');
    expect(parsed.date).toBeInstanceOf(Date);
  });

  it('uses the process-wide client when none is given', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'default-client-id' });

    const result = await new SesMailer().send(message);

    expect(result.message_id).toBe('default-client-id');
  });

  it('propagates SES errors so the caller does not record the action as executed', async () => {
    ses.on(SendEmailCommand).rejects(new Error('MessageRejected: Email address is not verified.'));

    await expect(new SesMailer(() => client).send(message)).rejects.toThrow('MessageRejected');
  });

  it('fails when SES returns no MessageId', async () => {
    ses.on(SendEmailCommand).resolves({});

    await expect(new SesMailer(() => client).send(message)).rejects.toThrow('no MessageId');
  });

  it('never calls SES for an unsafe recipient', async () => {
    await expect(new SesMailer(() => client).send({ ...message, to: 'a@b.example\r\nBcc: c@d.example' })).rejects.toBeInstanceOf(InvalidOutboundEmailError);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });
});

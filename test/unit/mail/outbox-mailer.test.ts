import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutboxMailer } from '#shared/adapters/mail/outbox-mailer';
import { InvalidOutboundEmailError, type OutboundEmail } from '#shared/domain/mailer';
import { addresses, parseEmail } from './parse-email';

const message: OutboundEmail = {
  from: 'Gatehouse <outreach@gatehouse.example>',
  to: 'tomas.lopez@xylomarket.example',
  subject: 'Tomas, an idea for Xylo Market',
  body: 'Hi Tomas,\n\nWould you be open to a quick chat?\n',
  idempotencyKey: 'apr_outbox_1',
};
const sentAt = new Date('2025-03-03T09:00:00Z');

let root: string;
let outbox: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gatehouse-outbox-'));
  outbox = join(root, 'outbox'); // does not exist yet: the mailer creates it
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('OutboxMailer', () => {
  it('writes <dir>/<idempotencyKey>.eml, a message mailparser reads back', async () => {
    const mailer = new OutboxMailer(outbox, () => sentAt);

    const result = await mailer.send(message);

    expect(result).toEqual({ message_id: '<apr_outbox_1@gatehouse.local>' });
    expect(await readdir(outbox)).toEqual(['apr_outbox_1.eml']);
    const parsed = await parseEmail(await readFile(join(outbox, 'apr_outbox_1.eml')));
    expect(parsed.messageId).toBe(result.message_id);
    expect(addresses(parsed.to)).toEqual([message.to]);
    expect(parsed.from?.value[0].address).toBe('outreach@gatehouse.example');
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.text).toBe(message.body);
    expect(parsed.date?.toISOString()).toBe(sentAt.toISOString());
  });

  it('is idempotent: a second send with the same key neither rewrites nor adds a file', async () => {
    const first = await new OutboxMailer(outbox, () => sentAt).send(message);
    const file = join(outbox, 'apr_outbox_1.eml');
    const before = { bytes: await readFile(file), mtime: (await stat(file)).mtimeMs };

    const second = await new OutboxMailer(outbox, () => new Date('2025-03-04T10:00:00Z')).send({ ...message, subject: 'Changed' });

    expect(second).toEqual(first);
    expect(await readdir(outbox)).toEqual(['apr_outbox_1.eml']);
    expect((await readFile(file)).equals(before.bytes)).toBe(true);
    expect((await stat(file)).mtimeMs).toBe(before.mtime);
  });

  it('returns the existing message id for a file an earlier process wrote', async () => {
    const mailer = new OutboxMailer(outbox);
    await mailer.send(message);
    await writeFile(join(outbox, 'apr_outbox_1.eml'), 'left as is');

    const result = await mailer.send(message);

    expect(result.message_id).toBe('<apr_outbox_1@gatehouse.local>');
    expect(await readFile(join(outbox, 'apr_outbox_1.eml'), 'utf8')).toBe('left as is');
  });

  it('leaves one file and no temporary files when the same key is sent concurrently', async () => {
    const mailer = new OutboxMailer(outbox, () => sentAt);

    const results = await Promise.all(Array.from({ length: 5 }, () => mailer.send(message)));

    expect(new Set(results.map((r) => r.message_id)).size).toBe(1);
    expect(await readdir(outbox)).toEqual(['apr_outbox_1.eml']);
  });

  it('writes one file per key', async () => {
    const mailer = new OutboxMailer(outbox, () => sentAt);

    await mailer.send(message);
    await mailer.send({ ...message, idempotencyKey: 'apr_outbox_2' });

    expect((await readdir(outbox)).sort()).toEqual(['apr_outbox_1.eml', 'apr_outbox_2.eml']);
  });

  it('refuses a key that would escape the directory, writing nothing', async () => {
    const mailer = new OutboxMailer(outbox);

    await expect(mailer.send({ ...message, idempotencyKey: '../../etc/passwd' })).rejects.toBeInstanceOf(InvalidOutboundEmailError);
    expect(await readdir(root)).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { access, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertSendable, type Mailer, type OutboundEmail } from '#shared/domain/mailer';
import { composeEmail, messageIdFor } from './compose-email';

/**
 * Local mailer: "sends" by writing `<dir>/<idempotencyKey>.eml`, a message any mail client opens.
 * Idempotent: a key whose file exists is not written again, so a retried send leaves one mail
 * (two sends racing past the existence check both rename onto the same name: still one file).
 * Atomic: the message is written to a temporary file and renamed, so a reader (or a crash)
 * never sees half a message under the final name.
 */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly dir: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Where the message for a key lives (also when it was sent by an earlier process). */
  pathFor(idempotencyKey: string): string {
    return join(this.dir, `${idempotencyKey}.eml`);
  }

  async send(message: OutboundEmail): Promise<{ message_id: string }> {
    assertSendable(message); // before the key names a file
    const file = this.pathFor(message.idempotencyKey);
    const message_id = messageIdFor(message.idempotencyKey);
    if (await exists(file)) return { message_id };

    await mkdir(this.dir, { recursive: true });
    const raw = await composeEmail(message, this.now());
    // Dot-prefixed and unique per attempt: never mistaken for a message, never shared by two writers.
    const temporary = join(this.dir, `.${message.idempotencyKey}.${randomUUID()}.tmp`);
    try {
      await writeFile(temporary, raw, { flag: 'wx' });
      await rename(temporary, file);
    } finally {
      await rm(temporary, { force: true });
    }
    return { message_id };
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';

/** Parses a raw RFC 5322 message the way a mail client would. */
export async function parseEmail(raw: Buffer | Uint8Array | string): Promise<ParsedMail> {
  return simpleParser(typeof raw === 'string' ? raw : Buffer.from(raw));
}

/** The bare addresses of a parsed address header. */
export function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  return [value ?? []].flat().flatMap((group) => group.value.map((mailbox) => mailbox.address ?? ''));
}

import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type Attachment, type HeaderLines, type ParsedMail } from 'mailparser';

import { htmlToText } from '#shared/adapters/mail/html-text';
import { GATEHOUSE_LOOP_HEADER } from '#shared/domain/mailer';

export { GATEHOUSE_LOOP_HEADER };

export interface InboundMailLimits {
  maxTextChars: number;
  maxAttachments: number;
  maxAttachmentBytes: number;
  maxTotalAttachmentBytes: number;
}

/** Defaults for `parseInboundMail`: what a task context and the attachment store accept. */
export const inboundMailLimits: Readonly<InboundMailLimits> = {
  maxTextChars: 100_000,
  maxAttachments: 10,
  maxAttachmentBytes: 5 * 1024 * 1024,
  maxTotalAttachmentBytes: 10 * 1024 * 1024,
};

export interface InboundMailOptions extends Partial<InboundMailLimits> {
  /** When the mail arrived; its date when the Date header is missing or unreadable. */
  receivedAt?: Date;
}

/** One header as it stood in the message (SES notifications list headers in the same shape). */
export interface MailHeader {
  name: string;
  value: string;
}

/** Why a mail came from a machine (auto-reply, bounce, list, our own mail), or false. */
export type Automated = false | { reason: string };

export interface InboundAttachment {
  filename: string;
  content_type: string;
  size: number;
  content: Buffer;
}

export interface SkippedAttachment {
  filename: string;
  size: number;
  reason: 'too_many_attachments' | 'attachment_too_large' | 'total_size_exceeded';
}

export interface InboundMail {
  /** Bare address, lowercased; '' when the mail has no usable From. */
  from: string;
  from_name?: string;
  /** Bare addresses from To and Cc, lowercased, each once. */
  to: string[];
  subject: string;
  text: string;
  text_truncated: boolean;
  /** ISO 8601. */
  date: string;
  /** Without angle brackets; `sha256-<hex>@gatehouse.local` when the mail had none. */
  message_id: string;
  in_reply_to?: string;
  automated: Automated;
  attachments: InboundAttachment[];
  skipped_attachments: SkippedAttachment[];
}

// RFC 5322's line limit: no header value we hand on needs more.
const maxHeaderChars = 998;
const controlRuns = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

/**
 * Parses a raw RFC 5322 message into what a mail trigger needs, bounded: header values are one line,
 * the text and the attachments are capped, and automatic mail is flagged (see `automatedReason`).
 */
export async function parseInboundMail(raw: Buffer | string, options: InboundMailOptions = {}): Promise<InboundMail> {
  const limits: InboundMailLimits = {
    maxTextChars: options.maxTextChars ?? inboundMailLimits.maxTextChars,
    maxAttachments: options.maxAttachments ?? inboundMailLimits.maxAttachments,
    maxAttachmentBytes: options.maxAttachmentBytes ?? inboundMailLimits.maxAttachmentBytes,
    maxTotalAttachmentBytes: options.maxTotalAttachmentBytes ?? inboundMailLimits.maxTotalAttachmentBytes,
  };
  // HTML becomes text here, in linear time (html-text.ts), not in mailparser's converter.
  const parsed = await simpleParser(raw, { skipTextToHtml: true, skipHtmlToText: true, keepCidLinks: true, checksumAlgo: false });
  const headers = headerFields(parsed.headerLines);
  const sender = mailboxes(parsed.from)[0];
  const fromName = oneLine(sender?.name ?? '');
  const inReplyTo = bareMessageId(parsed.inReplyTo);
  const { text, truncated } = capText(bodyText(parsed, limits.maxTextChars), limits.maxTextChars);
  return {
    from: oneLine(sender?.address ?? '').toLowerCase(),
    ...(fromName ? { from_name: fromName } : {}),
    to: [...new Set([...mailboxes(parsed.to), ...mailboxes(parsed.cc)].map((mailbox) => oneLine(mailbox.address ?? '').toLowerCase()).filter(Boolean))],
    subject: oneLine(parsed.subject ?? ''),
    text,
    text_truncated: truncated,
    date: mailDate(headers, options.receivedAt).toISOString(),
    message_id: bareMessageId(parsed.messageId) ?? `sha256-${createHash('sha256').update(raw).digest('hex')}@gatehouse.local`,
    ...(inReplyTo ? { in_reply_to: inReplyTo } : {}),
    automated: automatedReason(headers),
    ...boundAttachments(parsed.attachments, limits),
  };
}

/**
 * Tells automatic mail apart (RFC 3834 Auto-Submitted, Precedence, vendor auto-reply headers,
 * mailing lists, bounces with an empty return path, our own loop header), so it never starts a task.
 */
export function automatedReason(headers: Iterable<MailHeader>): Automated {
  const byName = new Map<string, string>();
  for (const header of headers) {
    const name = header.name.trim().toLowerCase();
    if (!byName.has(name)) byName.set(name, header.value.trim());
  }
  const reason = (name: string) => ({ reason: oneLine(`${name}: ${byName.get(name.toLowerCase())}`).slice(0, 200) });
  if (byName.has(GATEHOUSE_LOOP_HEADER.toLowerCase())) return reason(GATEHOUSE_LOOP_HEADER);
  const autoSubmitted = byName.get('auto-submitted');
  if (autoSubmitted !== undefined && autoSubmitted.split(';')[0].trim().toLowerCase() !== 'no') return reason('Auto-Submitted');
  if (byName.get('return-path')?.replace(/\s+/g, '') === '<>') return reason('Return-Path');
  if (['bulk', 'junk', 'list', 'auto_reply'].includes(firstToken(byName.get('precedence')))) return reason('Precedence');
  for (const name of ['X-Autoreply', 'X-Autorespond']) if (byName.has(name.toLowerCase())) return reason(name);
  const suppress = (byName.get('x-auto-response-suppress') ?? '').toLowerCase().split(/[\s,]+/);
  if (suppress.some((token) => ['all', 'oof', 'autoreply'].includes(token))) return reason('X-Auto-Response-Suppress');
  for (const name of ['List-Id', 'List-Unsubscribe']) if (byName.has(name.toLowerCase())) return reason(name);
  return false;
}

/** The top-level header lines, unfolded; values stay raw (the rules above match plain tokens). */
function headerFields(lines: HeaderLines): MailHeader[] {
  return lines.flatMap(({ line }) => {
    const colon = line.indexOf(':');
    if (colon < 1) return [];
    return [{ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).replace(/\r?\n/g, '').trim() }];
  });
}

function mailboxes(header: AddressObject | AddressObject[] | undefined): Array<{ name: string; address?: string }> {
  return [header ?? []]
    .flat()
    .flatMap((object) => object.value)
    .flatMap((entry) => (entry.group ? entry.group : [entry]))
    .filter((mailbox) => mailbox.address);
}

/** The plain-text part, or else the HTML part as text (a character past `max`, so capping sees it was longer). */
function bodyText(parsed: ParsedMail, max: number): string {
  if (parsed.text) return parsed.text;
  return typeof parsed.html === 'string' ? htmlToText(parsed.html, { maxChars: max + 1 }).trim() : '';
}

function capText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  // Never end on half a surrogate pair.
  const cut = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return { text: text.slice(0, cut), truncated: true };
}

function mailDate(headers: MailHeader[], receivedAt: Date = new Date()): Date {
  // Read from the header itself: mailparser puts "now" in place of an unreadable Date.
  const value = headers.find((header) => header.name.toLowerCase() === 'date')?.value;
  const date = value ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : receivedAt;
}

function bareMessageId(value: string | undefined): string | undefined {
  const line = oneLine(value ?? '');
  const id = (/<([^<>]+)>/.exec(line)?.[1] ?? line).replace(/\s+/g, '');
  return id || undefined;
}

function boundAttachments(
  attachments: Attachment[],
  limits: InboundMailLimits,
): Pick<InboundMail, 'attachments' | 'skipped_attachments'> {
  const kept: InboundAttachment[] = [];
  const skipped: SkippedAttachment[] = [];
  let total = 0;
  for (const attachment of attachments) {
    const filename = safeFilename(attachment.filename);
    const size = attachment.content.length;
    if (kept.length >= limits.maxAttachments) skipped.push({ filename, size, reason: 'too_many_attachments' });
    else if (size > limits.maxAttachmentBytes) skipped.push({ filename, size, reason: 'attachment_too_large' });
    else if (total + size > limits.maxTotalAttachmentBytes) skipped.push({ filename, size, reason: 'total_size_exceeded' });
    else {
      total += size;
      kept.push({ filename, content_type: oneLine(attachment.contentType).toLowerCase() || 'application/octet-stream', size, content: attachment.content });
    }
  }
  return { attachments: kept, skipped_attachments: skipped };
}

/** A sender-chosen name, made safe to show and to store under: one line, no path separators. */
function safeFilename(name: string | undefined): string {
  return oneLine(name ?? '').replace(/[/\\]/g, '_').replace(/^\.+/, '') || 'attachment';
}

function firstToken(value: string | undefined): string {
  return (value ?? '').trim().split(/[\s;(]/)[0].toLowerCase();
}

/** Control characters (CR, LF, tabs, Unicode line separators) become one space; capped at the RFC line length. */
function oneLine(value: string): string {
  return value.replace(controlRuns, ' ').trim().slice(0, maxHeaderChars);
}

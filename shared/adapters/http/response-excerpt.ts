import type { ResponseExcerpt } from '#shared/domain/webhook';

/** How much of a receiver's answer is kept with its attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** A content type is a short token; anything longer is a receiver's mistake, kept only in part. */
const MAX_CONTENT_TYPE_LENGTH = 200;

/**
 * Keeps the first RESPONSE_EXCERPT_BYTES of a response body as its chunks stream by. It copies
 * no more than that, whatever the body's length, so reading on (to free the connection) costs
 * nothing more.
 */
export class ExcerptCollector {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private seen = 0;

  constructor(
    private readonly statusCode: number,
    private readonly contentType: string | undefined,
  ) {}

  add(chunk: Buffer): void {
    this.seen += chunk.length;
    if (this.kept >= RESPONSE_EXCERPT_BYTES) return;
    const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - this.kept);
    this.chunks.push(Buffer.from(part));
    this.kept += part.length;
  }

  /** The excerpt so far; `ended` when the body was read to its end. */
  excerpt(ended: boolean): ResponseExcerpt {
    const whole = ended && this.seen <= RESPONSE_EXCERPT_BYTES;
    const decoded = new TextDecoder('utf-8').decode(Buffer.concat(this.chunks), { stream: !whole });
    const body = utf8Prefix(decoded, RESPONSE_EXCERPT_BYTES);
    return {
      status_code: this.statusCode,
      ...(this.contentType ? { content_type: this.contentType.slice(0, MAX_CONTENT_TYPE_LENGTH) } : {}),
      body,
      truncated: !whole || body.length < decoded.length,
    };
  }
}

/**
 * The longest prefix of `text` that fits `maxBytes` in UTF-8, cut between characters. Bytes that
 * were not UTF-8 decode to U+FFFD (three bytes each), so the text can outgrow the bytes read.
 */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    const size = Buffer.byteLength(character, 'utf8');
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += character.length;
  }
  return text.slice(0, end);
}

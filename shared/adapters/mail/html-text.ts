import { Tokenizer, TokenizerMode, type TokenHandler, type Token } from 'parse5';

/**
 * HTML to plain text in one pass of parse5's tokenizer (the HTML standard's state machine), so
 * the time is linear in the input whatever its shape: no regular expression scans ahead for a
 * closing tag, so 470 KiB of unclosed `<script>` costs what 470 KiB of prose does. No tree is
 * built (the tree builder's adoption agency has quadratic corners); a mail body needs only words
 * and line breaks. Script, style and other content no mail reader shows is dropped; entities are
 * decoded by the tokenizer; whitespace collapses as a browser collapses it; block elements break
 * lines (paragraphs and headings leave a blank line, as a reader sees them).
 */
export function htmlToText(html: string, options: { maxChars?: number } = {}): string {
  const sink = new TextSink(options.maxChars ?? Number.POSITIVE_INFINITY);
  let hiddenUntil: string | undefined;
  const handler: TokenHandler = {
    onStartTag(token: Token.TagToken) {
      if (hiddenUntil) return;
      const name = token.tagName;
      // What the tree builder would do: these elements' content is text up to their own end tag.
      const mode = TEXT_MODES[name];
      if (mode !== undefined && !token.selfClosing) tokenizer.state = mode;
      if (HIDDEN.has(name) && !token.selfClosing) hiddenUntil = name;
      else sink.breakLines(LINE_BREAKS[name] ?? 0, name === 'br');
    },
    onEndTag(token: Token.TagToken) {
      if (hiddenUntil) {
        if (token.tagName === hiddenUntil) hiddenUntil = undefined;
        return;
      }
      sink.breakLines(LINE_BREAKS[token.tagName] ?? 0, false);
    },
    onCharacter(token: Token.CharacterToken) {
      if (!hiddenUntil) sink.write(token.chars);
    },
    onWhitespaceCharacter(token: Token.CharacterToken) {
      if (!hiddenUntil) sink.write(token.chars);
    },
    onNullCharacter() {},
    onComment() {},
    onDoctype() {},
    onEof() {},
  };
  const tokenizer = new Tokenizer({}, handler);
  tokenizer.write(html, true);
  return sink.toString();
}

/** Content no mail reader shows. */
const HIDDEN = new Set(['script', 'style', 'title', 'template', 'iframe', 'noembed', 'noframes']);

// The tokenizer states the HTML standard's tree builder switches to after these start tags.
const TEXT_MODES: Record<string, (typeof TokenizerMode)[keyof typeof TokenizerMode]> = {
  script: TokenizerMode.SCRIPT_DATA,
  style: TokenizerMode.RAWTEXT,
  xmp: TokenizerMode.RAWTEXT,
  iframe: TokenizerMode.RAWTEXT,
  noembed: TokenizerMode.RAWTEXT,
  noframes: TokenizerMode.RAWTEXT,
  title: TokenizerMode.RCDATA,
  textarea: TokenizerMode.RCDATA,
  plaintext: TokenizerMode.PLAINTEXT,
};

const BLANK_LINE = ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'table', 'ul', 'ol', 'hr'];
const NEW_LINE = ['br', 'div', 'li', 'tr', 'section', 'article', 'header', 'footer', 'address', 'dd', 'dt', 'figure', 'form', 'main', 'nav', 'aside'];
const LINE_BREAKS: Record<string, number> = Object.fromEntries([...BLANK_LINE.map((name) => [name, 2]), ...NEW_LINE.map((name) => [name, 1])]);

/** Collects words with collapsed whitespace and at most one blank line between blocks. */
class TextSink {
  private readonly parts: string[] = [];
  private length = 0;
  private pendingBreaks = 0;
  private pendingSpace = false;

  constructor(private readonly maxChars: number) {}

  write(chars: string): void {
    if (this.length >= this.maxChars) return;
    // \s+ matches greedily with nothing after it, so this is linear in the chunk.
    const collapsed = chars.replace(/\s+/g, ' ');
    if (collapsed === ' ') {
      this.pendingSpace = true;
      return;
    }
    const leading = collapsed.startsWith(' ');
    const trailing = collapsed.endsWith(' ');
    const words = collapsed.slice(leading ? 1 : 0, trailing ? -1 : undefined);
    if (this.parts.length > 0) {
      if (this.pendingBreaks > 0) this.push('\n'.repeat(this.pendingBreaks));
      else if (this.pendingSpace || leading) this.push(' ');
    }
    this.push(words);
    this.pendingBreaks = 0;
    this.pendingSpace = trailing;
  }

  /** `count` line breaks before the next word (a `<br>` adds one to those pending, a block sets a minimum). */
  breakLines(count: number, additive: boolean): void {
    if (count === 0) return;
    this.pendingBreaks = Math.min(2, additive ? this.pendingBreaks + count : Math.max(this.pendingBreaks, count));
    this.pendingSpace = false;
  }

  toString(): string {
    const text = this.parts.join('');
    return text.length > this.maxChars ? text.slice(0, this.maxChars) : text;
  }

  private push(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }
}

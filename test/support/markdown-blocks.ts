import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One fenced code block of a Markdown file. */
export interface CodeBlock {
  /** Path relative to the repository root, e.g. `docs/api.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string up to the first space (`sh`, `json`, or '' when untagged). */
  lang: string;
  /** The block's text, without the fences and without the indentation of its opening fence. */
  text: string;
  /** The line just before the fence is the skip marker `<!-- docs-examples: skip -->`. */
  skipped: boolean;
}

/** What a block must be preceded by for the docs-examples test to leave it alone. */
export const SKIP_MARKER = '<!-- docs-examples: skip -->';

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;

/** The fenced code blocks of one Markdown text, in order. */
export function codeBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end++) {
      const close = lines[end].trim();
      if (close.startsWith(fence) && close.replace(/[`~]/g, '') === '') break;
      body.push(lines[end].startsWith(indent) ? lines[end].slice(indent.length) : lines[end].trimStart());
    }
    blocks.push({ file, line: index + 1, lang: lang.toLowerCase(), text: body.join('\n'), skipped: lines[index - 1]?.trim() === SKIP_MARKER });
    index = end;
  }
  return blocks;
}

/** README.md and every Markdown file under docs/, relative to `root`, sorted. */
export function documentationFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []));
  return ['README.md', ...walk(join(root, 'docs')).map((path) => relative(root, path)).sort()];
}

/** The code blocks of every documentation file. */
export function documentationBlocks(root: string): CodeBlock[] {
  return documentationFiles(root).flatMap((file) => codeBlocks(file, readFileSync(join(root, file), 'utf8')));
}

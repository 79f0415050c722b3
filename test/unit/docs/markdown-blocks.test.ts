import { describe, expect, it } from 'vitest';
import { codeBlocks, SKIP_MARKER } from '../../support/markdown-blocks';

describe('codeBlocks', () => {
  it('finds fenced blocks with their tag and line, and strips the indentation of a block in a list', () => {
    const markdown = ['# Title', '', '```sh', 'echo one', '```', '', '- item', '', '  ```sh', '  echo two', '    indented', '  ```', '', '```', 'plain', '```'].join('\n');

    const blocks = codeBlocks('doc.md', markdown);

    expect(blocks).toEqual([
      { file: 'doc.md', line: 3, lang: 'sh', text: 'echo one', skipped: false },
      { file: 'doc.md', line: 9, lang: 'sh', text: 'echo two\n  indented', skipped: false },
      { file: 'doc.md', line: 14, lang: '', text: 'plain', skipped: false },
    ]);
  });

  it('marks a block preceded by the skip marker, and only that one', () => {
    const markdown = [SKIP_MARKER, '```sh', 'npx cdk deploy', '```', '```sh', 'echo ran', '```'].join('\n');

    expect(codeBlocks('doc.md', markdown).map((block) => block.skipped)).toEqual([true, false]);
  });

  it('keeps a shorter fence inside a longer one as text', () => {
    const markdown = ['````md', '```sh', 'echo inner', '```', '````'].join('\n');

    expect(codeBlocks('doc.md', markdown)).toEqual([{ file: 'doc.md', line: 1, lang: 'md', text: '```sh\necho inner\n```', skipped: false }]);
  });
});

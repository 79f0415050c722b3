import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * Reads PDFs back as text in tests, with pdfjs-dist from npm, so the test command needs no
 * system tool. Text items are joined as laid out: pdfjs marks each line end (`hasEOL`) and the
 * gaps between words, so a phrase printed on one line reads back as one phrase.
 */

// The standard fonts' metrics ship with the package; without them pdfjs warns on every Helvetica page.
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The text of each page, in page order; lines end with '\n'. */
export async function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  // pdfjs takes ownership of (and detaches) the buffer it is given: hand it a copy.
  const document = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: STANDARD_FONTS }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      // Marked-content entries carry no text; a text item's line end becomes a newline.
      pages.push(content.items.map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ''}` : '')).join(''));
    }
    return pages;
  } finally {
    await document.destroy();
  }
}

/** The whole document's text, pages separated by a blank line. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  return (await pdfPageTexts(bytes)).join('\n\n');
}

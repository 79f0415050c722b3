import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Reads PDFs back as text in tests, with pdfjs-dist from npm, so the test command needs no
 * system tool. Text items are joined as laid out: pdfjs marks each line end (`hasEOL`) and the
 * gaps between words, so a phrase printed on one line reads back as one phrase.
 *
 * pdfjs runs in a worker thread of its own: its Node build installs core-js polyfills (a global
 * `Iterator` among them) that break jsdom, and with it the accessibility detector, in any process
 * that loaded it, which an e2e test file running the local runtime in-process would be.
 */

const require = createRequire(import.meta.url);
const PDFJS = pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href;
// The standard fonts' metrics ship with the package; without them pdfjs warns on every Helvetica page.
const STANDARD_FONTS = `${join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Runs in the worker (as a CommonJS script, hence require and import()); posts the pages' text. */
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { getDocument } = await import(workerData.pdfjs);
  const document = await getDocument({ data: workerData.bytes, standardFontDataUrl: workerData.fonts }).promise;
  const pages = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    // Marked-content entries carry no text; a text item's line end becomes a newline.
    pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\\n' : '') : '')).join(''));
  }
  await document.destroy();
  parentPort.postMessage(pages);
})();
`;

/** The text of each page, in page order; lines end with '\n'. */
export function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(READER, { eval: true, workerData: { pdfjs: PDFJS, fonts: STANDARD_FONTS, bytes: new Uint8Array(bytes) } });
    worker.once('message', (pages: string[]) => {
      resolve(pages);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the PDF reader stopped (exit code ${code}) before answering`)));
  });
}

/** The whole document's text, pages separated by a blank line. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  return (await pdfPageTexts(bytes)).join('\n\n');
}

import axe from 'axe-core';
import { JSDOM, VirtualConsole } from 'jsdom';
import type { FetchedPage } from '#shared/scans/model';

/**
 * The accessibility audit as it ran before the browser (the detector at the commit before it):
 * axe-core in a jsdom window where no page script runs and no subresource loads, so no layout,
 * no stylesheet and nothing a script renders. Kept here only as the bench's point of comparison.
 */

/** One violating element: its axe rule, and whether the source gave it a line (as findings were placed). */
export interface JsdomViolationNode {
  rule: string;
  located: boolean;
}

/** Audits one page as the former detector did, up to its findings' places; throws as it threw. */
export async function jsdomAudit(page: FetchedPage, tags: string[]): Promise<JsdomViolationNode[]> {
  const dom = new JSDOM(page.body, { url: page.final_url, contentType: 'text/html', includeNodeLocations: true, runScripts: 'outside-only', virtualConsole: new VirtualConsole() });
  try {
    const window = dom.window as unknown as { eval(code: string): unknown; axe: typeof axe };
    window.eval(axe.source);
    const results = await window.axe.run(dom.window.document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], elementRef: true });
    return results.violations.flatMap((violation) => violation.nodes.map((node) => ({ rule: violation.id, located: Boolean(node.element && dom.nodeLocation(node.element)) })));
  } finally {
    dom.window.close();
  }
}

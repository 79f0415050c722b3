import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import type { FindingLocation } from '#shared/scans/model';

/**
 * The HTML reading the crawler and the detectors share: one spec-compliant parse (parse5, the
 * tokenizer browsers use) with source locations, so a finding can point at the start tag the
 * browser would see, not at what a regular expression guessed.
 */

export type HtmlElement = DefaultTreeAdapterTypes.Element;
type HtmlNode = DefaultTreeAdapterTypes.Node;
type HtmlParent = DefaultTreeAdapterTypes.ParentNode;

export interface ParsedHtml {
  document: DefaultTreeAdapterTypes.Document;
  source: string;
}

export function parseHtml(source: string): ParsedHtml {
  return { document: parse(source, { sourceCodeLocationInfo: true }), source };
}

function isElement(node: HtmlNode): node is HtmlElement {
  return 'tagName' in node;
}

function childrenOf(node: HtmlNode): HtmlNode[] {
  // <template> keeps its children in a separate fragment; they are still markup the page ships.
  if (isElement(node) && node.tagName === 'template') return (node as DefaultTreeAdapterTypes.Template).content.childNodes;
  return 'childNodes' in node ? (node as HtmlParent).childNodes : [];
}

/** Every element in document order. */
export function elementsOf(root: HtmlNode): HtmlElement[] {
  const found: HtmlElement[] = [];
  const stack: HtmlNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as HtmlNode;
    if (isElement(node)) found.push(node);
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return found;
}

export function attr(element: HtmlElement, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'head']);

/** The text a reader sees below `root`, whitespace collapsed; `skip` prunes subtrees (e.g. links). */
export function visibleText(root: HtmlNode, skip: (element: HtmlElement) => boolean = () => false): string {
  const parts: string[] = [];
  const stack: HtmlNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as HtmlNode;
    if (node.nodeName === '#text') parts.push((node as DefaultTreeAdapterTypes.TextNode).value);
    if (isElement(node) && (INVISIBLE.has(node.tagName) || skip(node))) continue;
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * A selector that finds the element again: `#id` when the id is unique-looking, else the
 * `tag:nth-of-type(n)` path from <html>. Stable under edits elsewhere on the page, which the
 * finding fingerprint relies on.
 */
export function cssPath(element: HtmlElement): string {
  const steps: string[] = [];
  let current: HtmlElement | null = element;
  while (current) {
    const id = attr(current, 'id');
    if (id && /^[A-Za-z][\w-]*$/.test(id)) {
      steps.unshift(`${current.tagName}#${id}`);
      break;
    }
    const parent: HtmlParent | null = current.parentNode;
    const siblings = parent ? parent.childNodes.filter((n): n is HtmlElement => isElement(n) && n.tagName === current?.tagName) : [];
    steps.unshift(siblings.length > 1 ? `${current.tagName}:nth-of-type(${siblings.indexOf(current) + 1})` : current.tagName);
    current = parent && isElement(parent as HtmlNode) ? (parent as HtmlElement) : null;
  }
  return steps.join(' > ');
}

const SNIPPET_LIMIT = 200;

/** The element's place in the fetched HTML: its start tag's line/column and an excerpt. */
export function elementLocation(url: string, element: HtmlElement, source: string): FindingLocation {
  const tag = element.sourceCodeLocation?.startTag ?? element.sourceCodeLocation ?? undefined;
  const location: FindingLocation = { type: 'url', url, selector: cssPath(element) };
  if (!tag) return location;
  return {
    ...location,
    line: tag.startLine,
    column: tag.startCol,
    end_line: tag.endLine,
    end_column: tag.endCol,
    snippet: source.slice(tag.startOffset, Math.min(tag.endOffset, tag.startOffset + SNIPPET_LIMIT)),
  };
}

/** The document's base URL: its first `<base href>`, else the page URL. */
function baseUrlOf(elements: HtmlElement[], pageUrl: string): string {
  const baseHref = elements.find((e) => e.tagName === 'base' && attr(e, 'href') !== undefined);
  return resolveUrl(baseHref ? (attr(baseHref, 'href') as string) : pageUrl, pageUrl) ?? pageUrl;
}

/** Absolute http(s) URLs of `<a href>` links, resolved against `<base href>` or the page URL, without fragments. */
export function linksOf(parsed: ParsedHtml, pageUrl: string): { url: string; text: string }[] {
  const elements = elementsOf(parsed.document);
  const base = baseUrlOf(elements, pageUrl);
  const links: { url: string; text: string }[] = [];
  for (const element of elements) {
    if (element.tagName !== 'a') continue;
    const href = attr(element, 'href');
    const resolved = href === undefined ? undefined : resolveUrl(href.trim(), base);
    if (resolved) links.push({ url: resolved, text: visibleText(element) });
  }
  return links;
}

/**
 * The absolute URL the page's `<link rel="canonical" href>` in <head> names; undefined without
 * one, or when several name different URLs (search engines then ignore them all, and so do we).
 * One in <body> is ignored, as search engines do.
 */
export function canonicalLinkOf(parsed: ParsedHtml, pageUrl: string): string | undefined {
  const elements = elementsOf(parsed.document);
  const head = elements.find((e) => e.tagName === 'head');
  if (!head) return undefined;
  const base = baseUrlOf(elements, pageUrl);
  const named = new Set<string | undefined>();
  for (const element of elementsOf(head)) {
    const href = attr(element, 'href');
    if (element.tagName === 'link' && href !== undefined && (attr(element, 'rel') ?? '').toLowerCase().split(/\s+/).includes('canonical')) named.add(resolveUrl(href.trim(), base));
  }
  return named.size === 1 ? [...named][0] : undefined;
}

function resolveUrl(href: string, base: string): string | undefined {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

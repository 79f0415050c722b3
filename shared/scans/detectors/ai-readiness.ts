import type { DetectedFinding, Detector, DetectorInput, FetchedPage } from '#shared/scans/model';
import { attr, elementLocation, elementsOf, linksOf, parseHtml, visibleText, type HtmlElement, type ParsedHtml } from '#shared/scans/crawler/html';
import { describeRule, findingOf, isRealFile } from '#shared/scans/detectors/rule-helpers';
import { AI_READINESS_RULES } from '#shared/scans/detectors/ai-readiness-rules';

/**
 * Transparency checks for sites that use AI, after EU AI Act Article 50: people must be told
 * when they interact with an AI system (50(1)) and when content is AI-generated (50(2), 50(4)),
 * plus the machine-readable files that tell AI crawlers what the site allows. Markup heuristics
 * only: a widget injected later by script is recognised by its loader's host.
 */

export const AI_CRAWLERS = ['GPTBot', 'ClaudeBot', 'Google-Extended', 'CCBot', 'PerplexityBot', 'anthropic-ai'] as const;

// Hosts that serve chat-widget loaders; the widget itself only appears after the script runs.
const CHAT_WIDGET_HOSTS = [
  'widget.intercom.io', 'js.intercomcdn.com', 'js.driftt.com', 'embed.tawk.to', 'client.crisp.chat', 'static.zdassets.com',
  'code.tidio.co', 'cdn.livechatinc.com', 'wchat.freshchat.com', 'cdn.botpress.cloud', 'www.chatbase.co', 'cdn.voiceflow.com', 'widget.kommunicate.io',
];
const CHAT_TOKENS = new Set(['chat', 'chatbot', 'chatwidget', 'livechat', 'assistant', 'copilot', 'chatbox']);
const DISCLOSURE_CASED = /\b(AI|KI)\b/;
const DISCLOSURE = /artificial intelligence|künstliche intelligenz|automated (assistant|agent|system|responses?)|virtual assistant|not a (real )?(human|person)|language model/i;
const POLICY_LINK = /(\bai\b|artificial[-_ ]intelligence).{0,20}(policy|transparency|disclosure|statement|use)|responsible[-_ ]ai|transparency|ai[-_ ]act/i;

const isDisclosure = (text: string) => DISCLOSURE_CASED.test(text) || DISCLOSURE.test(text);

export const aiReadinessDetector: Detector = {
  name: 'ai_readiness',
  rules: Object.values(AI_READINESS_RULES).map(describeRule),
  async run(input: DetectorInput): Promise<DetectedFinding[]> {
    const findings: DetectedFinding[] = [];
    const parsed = input.crawl.pages.map((page) => ({ page, html: parseHtml(page.body) }));
    for (const { page, html } of parsed) findings.push(...pageFindings(page, html));
    findings.push(...(await wellKnownFileFindings(input)));
    findings.push(...(await policyFindings(input, parsed)));
    return findings;
  },
};

function tokensOf(element: HtmlElement): string[] {
  const names = [attr(element, 'id'), attr(element, 'class'), attr(element, 'aria-label'), attr(element, 'data-widget'), ...element.attrs.filter((a) => a.name.startsWith('data-')).map((a) => a.name)];
  return names.flatMap((name) => (name ?? '').toLowerCase().split(/[^a-z0-9]+/)).filter((t) => t !== '');
}

function isChatWidget(element: HtmlElement): boolean {
  if (element.tagName === 'script') {
    const src = attr(element, 'src');
    if (!src) return false;
    try {
      return CHAT_WIDGET_HOSTS.includes(new URL(src, 'https://x.invalid').hostname);
    } catch {
      return false;
    }
  }
  if (['html', 'body', 'head', 'meta', 'link', 'style'].includes(element.tagName)) return false;
  return tokensOf(element).some((t) => CHAT_TOKENS.has(t));
}

function isAiContent(element: HtmlElement): boolean {
  const marked = attr(element, 'data-ai-generated');
  return (marked !== undefined && marked.toLowerCase() !== 'false') || (attr(element, 'class') ?? '').toLowerCase().split(/\s+/).includes('ai-generated');
}

/** Text and labelling attributes of the element's subtree: where a disclosure must be to count. */
function disclosureTextOf(element: HtmlElement): string {
  const labels = elementsOf(element).flatMap((e) => [attr(e, 'aria-label'), attr(e, 'title'), attr(e, 'placeholder')]);
  return [visibleText(element), ...labels].filter(Boolean).join(' ');
}

function pageFindings(page: FetchedPage, html: ParsedHtml): DetectedFinding[] {
  const elements = elementsOf(html.document);
  const findings: DetectedFinding[] = [];
  // Outermost widget element only: its children carry the same tokens.
  const widget = elements.find((e) => isChatWidget(e) && e.tagName !== 'script') ?? elements.find(isChatWidget);
  if (widget) {
    // A script-only widget renders its own text later; then the page itself must disclose,
    // outside links (a footer "AI policy" link is not a disclosure at the point of interaction).
    const text = widget.tagName === 'script' ? visibleText(html.document, (e) => e.tagName === 'a') : disclosureTextOf(widget);
    if (!isDisclosure(text)) findings.push(findingOf(AI_READINESS_RULES.undisclosedChat, elementLocation(page.final_url, widget, html.source)));
  }
  const content = elements.find((e) => isAiContent(e) && !isDisclosure(disclosureTextOf(e)));
  if (content) findings.push(findingOf(AI_READINESS_RULES.undisclosedContent, elementLocation(page.final_url, content, html.source)));
  return findings;
}

async function wellKnownFileFindings(input: DetectorInput): Promise<DetectedFinding[]> {
  const [llms, aiTxt, robots] = await Promise.all(['/llms.txt', '/ai.txt', '/robots.txt'].map((path) => input.fetchPath(path)));
  const at = (path: string) => ({ type: 'url' as const, url: new URL(path, input.target).href });
  const findings: DetectedFinding[] = [];
  if (!isRealFile(llms)) findings.push(findingOf(AI_READINESS_RULES.missingLlmsTxt, at('/llms.txt')));
  if (!isRealFile(aiTxt)) findings.push(findingOf(AI_READINESS_RULES.missingAiTxt, at('/ai.txt')));
  if (!robots || !isRealFile(robots)) findings.push(findingOf(AI_READINESS_RULES.missingRobots, at('/robots.txt')));
  else if (!namesAiCrawler(robots.body)) findings.push(findingOf(AI_READINESS_RULES.robotsWithoutAiRules, at('/robots.txt')));
  return findings;
}

function namesAiCrawler(robots: string): boolean {
  const agents = robots
    .split(/\r?\n/)
    .map((line) => /^\s*user-agent\s*:\s*([^#\s]+)/i.exec(line)?.[1]?.toLowerCase())
    .filter((agent): agent is string => agent !== undefined);
  return AI_CRAWLERS.some((crawler) => agents.includes(crawler.toLowerCase()));
}

async function policyFindings(input: DetectorInput, pages: { page: FetchedPage; html: ParsedHtml }[]): Promise<DetectedFinding[]> {
  const origin = new URL(input.target).origin;
  const candidates = new Set<string>();
  for (const { page, html } of pages) {
    for (const link of linksOf(html, page.final_url)) {
      const url = new URL(link.url);
      if (url.origin === origin && (POLICY_LINK.test(link.text) || POLICY_LINK.test(safeDecode(url.pathname)))) candidates.add(url.pathname + url.search);
    }
  }
  for (const path of [...candidates].sort()) {
    const answer = await input.fetchPath(path);
    if (answer?.status === 200) return [];
  }
  const detail = candidates.size > 0 ? `Linked candidates did not answer 200: ${[...candidates].sort().join(', ')}.` : undefined;
  return [findingOf(AI_READINESS_RULES.missingPolicy, { type: 'url', url: input.target }, detail)];
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

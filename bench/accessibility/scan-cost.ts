import { PRICES } from '../prices';

/**
 * The price of one accessibility detector run (one scan's audit) on Lambda, from measured times:
 * billed duration × memory at the architecture's GB-second price, the ephemeral storage above the
 * free 512 MB for the same duration, and the invocation. The crawl, the run's DynamoDB writes and
 * the function's init are left out: the same for both audits, or not what this phase measures.
 */

/** Ephemeral storage Lambda includes free with every function. */
export const FREE_EPHEMERAL_MB = 512;

export interface LambdaRun {
  label: string;
  architecture: 'x86_64' | 'arm64';
  memoryMb: number;
  ephemeralMb: number;
  durationMs: number;
}

export interface PricedRun extends LambdaRun {
  /** Duration rounded up to the millisecond, as Lambda bills it. */
  billedMs: number;
  gbSeconds: number;
  ephemeralGbSeconds: number;
  usd: { compute: number; ephemeral: number; request: number; total: number };
}

/** One invocation of `run`, priced. */
export function priceRun(run: LambdaRun): PricedRun {
  const billedMs = Math.ceil(run.durationMs);
  const seconds = billedMs / 1000;
  const gbSeconds = (seconds * run.memoryMb) / 1024;
  const ephemeralGbSeconds = (seconds * Math.max(0, run.ephemeralMb - FREE_EPHEMERAL_MB)) / 1024;
  const compute = gbSeconds * (run.architecture === 'x86_64' ? PRICES.lambdaX86GbSecond.usd : PRICES.lambdaArmGbSecond.usd);
  const ephemeral = ephemeralGbSeconds * PRICES.lambdaEphemeralGbSecond.usd;
  const request = PRICES.lambdaRequest.usd;
  return { ...run, billedMs, gbSeconds, ephemeralGbSeconds, usd: { compute, ephemeral, request, total: compute + ephemeral + request } };
}

/** The measured times a scan of the site is priced from. */
export interface AuditTimes {
  /** The browser's launch, paid by every detector run (the renderer is closed at its end). */
  launchMs: number;
  /** Inflating the packed browser into /tmp, paid once per Lambda environment. */
  inflateMs: number;
  /** The site's pages rendered and audited, one after the other. */
  browserPagesMs: number;
  /** The same pages in the former jsdom audit. */
  jsdomPagesMs: number;
}

/** The detector function's sizes: today's (browser, x86_64) and the former one's (jsdom, arm64). */
export interface DetectorFunctions {
  browser: { memoryMb: number; ephemeralMb: number };
  jsdom: { memoryMb: number; ephemeralMb: number };
}

export interface AccessibilityScanCost {
  /** An environment that already inflated the browser: launch + pages. */
  browserWarm: PricedRun;
  /** A fresh environment: inflation + launch + pages. */
  browserCold: PricedRun;
  /** The former audit on arm64. */
  jsdom: PricedRun;
}

export function accessibilityScanCost(times: AuditTimes, functions: DetectorFunctions): AccessibilityScanCost {
  const browser = { architecture: 'x86_64' as const, ...functions.browser };
  return {
    browserWarm: priceRun({ label: 'browser, warm environment (launch + pages)', ...browser, durationMs: times.launchMs + times.browserPagesMs }),
    browserCold: priceRun({ label: 'browser, cold environment (inflate + launch + pages)', ...browser, durationMs: times.inflateMs + times.launchMs + times.browserPagesMs }),
    jsdom: priceRun({ label: 'jsdom, before (pages)', architecture: 'arm64', ...functions.jsdom, durationMs: times.jsdomPagesMs }),
  };
}

import { describe, expect, it } from 'vitest';
import { accessibilityScanCost, priceRun } from '../../../bench/accessibility/scan-cost';
import { PRICES } from '../../../bench/prices';

describe('accessibility scan cost', () => {
  it('bills the duration rounded up to the millisecond at the architecture’s GB-second price, plus one invocation', () => {
    const priced = priceRun({ label: 'x', architecture: 'x86_64', memoryMb: 2048, ephemeralMb: 512, durationMs: 999.2 });

    expect(priced.billedMs).toBe(1000);
    expect(priced.gbSeconds).toBe(2);
    expect(priced.usd.compute).toBeCloseTo(2 * PRICES.lambdaX86GbSecond.usd, 12);
    expect(priced.usd.ephemeral).toBe(0);
    expect(priced.usd.total).toBeCloseTo(2 * PRICES.lambdaX86GbSecond.usd + PRICES.lambdaRequest.usd, 12);
  });

  it('charges ephemeral storage only above the free 512 MB, for the billed duration', () => {
    const priced = priceRun({ label: 'x', architecture: 'x86_64', memoryMb: 1024, ephemeralMb: 1024, durationMs: 4000 });

    expect(priced.ephemeralGbSeconds).toBe(2);
    expect(priced.usd.ephemeral).toBeCloseTo(2 * PRICES.lambdaEphemeralGbSecond.usd, 15);
  });

  it('prices arm64 at its own rate', () => {
    const priced = priceRun({ label: 'x', architecture: 'arm64', memoryMb: 1024, ephemeralMb: 512, durationMs: 1000 });

    expect(priced.usd.compute).toBeCloseTo(PRICES.lambdaArmGbSecond.usd, 12);
  });

  it('adds the launch to every browser run and the inflation to a cold environment’s only; jsdom pays its pages alone', () => {
    const functions = { browser: { memoryMb: 2048, ephemeralMb: 1024 }, jsdom: { memoryMb: 2048, ephemeralMb: 512 } };

    const cost = accessibilityScanCost({ launchMs: 200, inflateMs: 2500, browserPagesMs: 5000, jsdomPagesMs: 700 }, functions);

    expect(cost.browserWarm).toMatchObject({ architecture: 'x86_64', billedMs: 5200, ephemeralMb: 1024 });
    expect(cost.browserCold).toMatchObject({ architecture: 'x86_64', billedMs: 7700 });
    expect(cost.jsdom).toMatchObject({ architecture: 'arm64', billedMs: 700, ephemeralGbSeconds: 0 });
    expect(cost.browserCold.usd.total).toBeGreaterThan(cost.browserWarm.usd.total);
  });
});

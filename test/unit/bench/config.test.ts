import { describe, expect, it } from 'vitest';
import { benchConfig } from '../../../bench/config';

describe('bench configuration', () => {
  it('runs the full bench by default and a short one with BENCH_QUICK=1', () => {
    expect(benchConfig({})).toMatchObject({ quick: false, endToEndSeconds: 60, routeConcurrency: [1, 32], producers: [1, 50], phases: ['bundles', 'routes', 'metering', 'end-to-end', 'dashboard', 'triggers', 'integrations', 'workers', 'accessibility', 'schemas'], accessibilityRounds: 5, schemaTasks: 600 });
    expect(benchConfig({ BENCH_QUICK: '1' })).toMatchObject({ quick: true, endToEndSeconds: 10, routeSeconds: 3, accessibilityRounds: 2 });
  });

  it('lets each knob be set alone and rejects nonsense', () => {
    expect(benchConfig({ BENCH_SECONDS: '30', BENCH_PRODUCERS: '1, 8', BENCH_PHASES: 'routes', BENCH_ACCESSIBILITY_ROUNDS: '3' })).toMatchObject({ endToEndSeconds: 30, producers: [1, 8], phases: ['routes'], accessibilityRounds: 3 });
    expect(() => benchConfig({ BENCH_SECONDS: '0' })).toThrow(/BENCH_SECONDS/);
    expect(() => benchConfig({ BENCH_PHASES: 'routes,speed' })).toThrow(/speed/);
  });

  it('loads the bundles with this node unless BENCH_INIT_NODE names another', () => {
    expect(benchConfig({}).initNode).toBe(process.execPath);
    expect(benchConfig({ BENCH_INIT_NODE: '/opt/node22/bin/node' }).initNode).toBe('/opt/node22/bin/node');
  });
});

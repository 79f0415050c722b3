import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gte } from '#lib/bundling/semver-gte';

const semver = createRequire(import.meta.url)('semver') as { gte: (a: string, b: string) => boolean };

describe('the semver stand-in of function bundles', () => {
  it('agrees with semver on release versions', () => {
    const version = fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30)).map((parts) => parts.join('.'));

    fc.assert(fc.property(version, version, (a, b) => gte(a, b) === semver.gte(a, b)));
  });

  it('answers the calls its users make: cls-hooked’s entry with Node’s version, the X-Ray SDK’s v2 patcher', () => {
    expect(gte(process.versions.node, '8.0.0')).toBe(true);
    expect(gte('2.7.14', '2.7.15')).toBe(false);
  });

  it('rejects what is not a version, as semver does', () => {
    expect(() => gte('latest', '1.0.0')).toThrow(TypeError);
  });
});

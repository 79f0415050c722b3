/**
 * Stands in for `semver` inside function bundles (an esbuild alias, see ./aliases.ts). Its users in
 * the bundles' dependencies call only `gte`, on plain `x.y.z` versions: cls-hooked's entry with
 * Node's version at load, and the X-Ray SDK's AWS SDK v2 patcher (never called: Gatehouse uses SDK
 * v3). Since the X-Ray SDK is bundled through ./xray-sdk-lambda.ts, which loads cls-hooked's
 * context module directly and leaves the v2 patcher out, no bundle reaches either; the alias stays
 * so that none brings the real package back: it evaluates its whole API and builds dozens of
 * regular expressions at load, at every cold start, for that one comparison.
 */
function parts(version: string): number[] {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (!match) throw new TypeError(`Invalid Version: ${version}`);
  return match.slice(1).map(Number);
}

/** `a >= b` for release versions (`22.11.0`); a prerelease or build suffix is ignored. */
export function gte(a: string, b: string): boolean {
  const [left, right] = [parts(a), parts(b)];
  for (let index = 0; index < 3; index++) if (left[index] !== right[index]) return left[index] > right[index];
  return true;
}

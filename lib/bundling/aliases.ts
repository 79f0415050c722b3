import { fileURLToPath } from 'node:url';

/**
 * Packages replaced in every function bundle (esbuild `alias`), shared by `GatehouseFunction` and
 * the benchmark's copy of its bundling options so that both build the same code.
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  semver: fileURLToPath(new URL('./semver-gte.ts', import.meta.url)),
  fontkit: fileURLToPath(new URL('./fontkit-absent.ts', import.meta.url)),
};

import { fileURLToPath } from 'node:url';

/** Packages replaced in every function bundle: the esbuild `alias` of ./esbuild-options.ts. */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  semver: fileURLToPath(new URL('./semver-gte.ts', import.meta.url)),
  fontkit: fileURLToPath(new URL('./fontkit-absent.ts', import.meta.url)),
};

import { fileURLToPath } from 'node:url';

/** Packages (and three Node built-ins) replaced in every function bundle: the esbuild `alias` of ./esbuild-options.ts. */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  semver: fileURLToPath(new URL('./semver-gte.ts', import.meta.url)),
  fontkit: fileURLToPath(new URL('./fontkit-absent.ts', import.meta.url)),
  'aws-xray-sdk-core': fileURLToPath(new URL('./xray-sdk-lambda.ts', import.meta.url)),
  'emitter-listener': fileURLToPath(new URL('./emitter-listener-absent.ts', import.meta.url)),
  'node:stream/web': fileURLToPath(new URL('./web-readable-stream.ts', import.meta.url)),
  'node:http': fileURLToPath(new URL('./node-http-required.ts', import.meta.url)),
  assert: fileURLToPath(new URL('./assert-ok.ts', import.meta.url)),
};

#!/usr/bin/env node
// The published package runs the compiled dist; a checkout runs the TypeScript source through tsx.
import { existsSync } from 'node:fs';
const compiled = new URL('../dist/main.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}

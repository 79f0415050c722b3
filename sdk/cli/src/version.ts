import { readFileSync } from 'node:fs';

/** The package's version; package.json is one folder up from both src/ and dist/. */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiTypesSource, SDK_API_TYPES_FILE } from '../../../bin/generate-api-types';

describe("the worker SDK's API types", () => {
  // The SDK's request bodies are these types and its answers are checked against them when it
  // compiles (sdk/typescript/src/wire.ts), so the SDK follows the protocol the service declares.
  it('are generated from the current OpenAPI document (npm run generate:api-types)', async () => {
    const committed = readFileSync(join(import.meta.dirname, '../../..', SDK_API_TYPES_FILE), 'utf8');

    expect(committed).toBe(await apiTypesSource());
  });
});

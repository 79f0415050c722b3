import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypesSource } from '../../../bin/generate-api-types';

describe("the dashboard's API types", () => {
  it('are generated from the current OpenAPI document (npm run generate:api-types)', async () => {
    const committed = readFileSync(join(import.meta.dirname, '../../..', API_TYPES_FILE), 'utf8');

    expect(committed).toBe(await apiTypesSource());
  });
});

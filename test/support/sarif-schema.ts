import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The official OASIS SARIF 2.1.0 schema (errata01): the team's copy beside the repo, else ours. */
const CANDIDATES = [resolve(repoRoot, '../shared/schemas/sarif-schema-2.1.0.json'), resolve(repoRoot, 'test/fixtures/sarif-schema-2.1.0.json')];

export const SARIF_SCHEMA_PATH = CANDIDATES.find((path) => existsSync(path)) ?? CANDIDATES[1];

/** The schema as Ajv 8 compiles it: draft-04's `$schema` and `id` keys removed (no keyword changed meaning). */
export function sarifSchema(): Record<string, unknown> {
  const { $schema, id, ...schema } = JSON.parse(readFileSync(SARIF_SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
  void $schema;
  void id;
  return schema;
}

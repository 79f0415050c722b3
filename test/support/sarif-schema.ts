import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The official OASIS SARIF 2.1.0 schema (errata01), kept in the repository. */
export const SARIF_SCHEMA_PATH = fileURLToPath(new URL('../fixtures/sarif-schema-2.1.0.json', import.meta.url));

/** The schema as Ajv 8 compiles it: draft-04's `$schema` and `id` keys removed (no keyword changed meaning). */
export function sarifSchema(): Record<string, unknown> {
  const { $schema, id, ...schema } = JSON.parse(readFileSync(SARIF_SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
  void $schema;
  void id;
  return schema;
}

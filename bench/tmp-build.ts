import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { writeCompanions } from '#lib/bundling/companions';
import { FUNCTION_BUNDLING } from '#lib/bundling/esbuild-options';
import { repositoryRoot } from '#lib/local/handler-loader';
const out = process.argv[2];
const floor = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nconst client = new DynamoDBClient({});\nexport const handler = async () => ({ statusCode: 200, body: client ? 'ok' : '' });\n`;
for (const [name, entry] of [['list', 'functions/tasks/list-tasks.ts'], ['create', 'functions/tasks/create-task.ts'], ['floor', '']] as const) {
  const outdir = join(out, name);
  mkdirSync(outdir, { recursive: true });
  await build({ ...FUNCTION_BUNDLING, absWorkingDir: repositoryRoot, outdir, ...(entry ? { entryPoints: [join(repositoryRoot, entry)] } : { stdin: { contents: floor, resolveDir: repositoryRoot, loader: 'ts' as const, sourcefile: 'floor.ts' } }) });
  if (entry) writeCompanions(entry, repositoryRoot, outdir);
}

import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitHubClient, listFiles, readFile } from '#shared/adapters/providers/github';
import { AgentFailure } from '#shared/agents/agent';
import { aiReadinessAgent } from '#shared/agents/ai-readiness/ai-readiness-agent';
import type { AuditReport } from '#shared/agents/ai-readiness/audit-report';
import { fullAuditInputSchema } from '#shared/agents/ai-readiness/input-schemas';
import {
  aiDependenciesOf,
  collectRepositoryEvidence,
  headingsOf,
  MAX_REPOSITORY_BYTES,
  MAX_REPOSITORY_FILE_BYTES,
  MAX_REPOSITORY_FILES,
  repositoryEvidenceRules,
  repositoryFileKind,
  type RepositoryEvidence,
} from '#shared/agents/ai-readiness/repository-evidence';
import { ProviderFailure, type ProviderFailureKind } from '#shared/domain/provider-failure';
import { startGitHubApiServer, type GitHubApiServer } from '../../support/providers/github-api-server.ts';
import { RecordingContext } from './recording-context';

const TOKEN = 'tok';
const REPOSITORY = 'acme/models';

const README = `# Credit scoring model

A gradient-boosted model that scores consumer loan applications.

## Intended use
Ranking applications for trained credit officers.

## Limitations
Not validated for business loans.
`;

const MODEL_CARD = `---
license: apache-2.0
tags: [tabular-classification]
---
# Model card: credit scorer

## Model details
Gradient-boosted trees, version 3.

## Training data
See data/datasheet.md.

## Evaluation
Accuracy 0.91 and AUC 0.95 on the 2024 hold-out set.

## Fairness evaluation
Approval rates compared across age and gender groups; the gap stays under 2 points.

## Intended use
Pre-screening consumer loan applications.

## Limitations
\`\`\`
# not a heading: a comment in a code block
\`\`\`
Scores drift for applicants without credit history.
`;

const DATASHEET = `Datasheet: loan applications 2019-2024
======================================

## Motivation
Built to train the credit scorer.

## Composition
120,000 applications from three countries.

## Collection process
Exported monthly from the loan system.
`;

const GOVERNANCE_POLICY = `# AI governance policy

Every AI system has an accountable owner, named in the AI inventory.

## Approval
New AI systems are approved by the AI board.

## Human oversight
A credit officer reviews every declined application before the decision is sent.
`;

// A security policy without AI-specific threats: read, but no evidence of an AI security policy.
const SECURITY = `# Security policy

Report vulnerabilities to security@acme.example; we answer within two working days.
`;

const PACKAGE_JSON = JSON.stringify({ name: 'scorer-api', dependencies: { express: '^5.0.0', openai: '^4.0.0' }, devDependencies: { vitest: '^4.0.0' } }, null, 2);

const WORKFLOW = `name: ci
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm test
      - name: Robustness suite
        run: npm run evals -- --suite robustness
`;

const modelRepository = (): Map<string, string | Buffer> =>
  new Map<string, string | Buffer>([
    ['README.md', README],
    ['MODEL_CARD.md', MODEL_CARD],
    ['data/datasheet.md', DATASHEET],
    ['docs/ai-governance-policy.md', GOVERNANCE_POLICY],
    ['docs/architecture.md', '# Architecture\n'],
    ['SECURITY.md', SECURITY],
    ['package.json', PACKAGE_JSON],
    ['.github/workflows/ci.yml', WORKFLOW],
    ['src/index.ts', 'export {};\n'],
    ['node_modules/openai/README.md', '# OpenAI\n## Intended use\n## Limitations\n'],
  ]);

/** The tool proxy's verdicts on provider failures (shared/services/tool-execution.ts), without its retries. */
const failureCodes: Record<ProviderFailureKind, string> = {
  credentials_refused: 'integration_revoked',
  rejected: 'tool_call_rejected',
  transient: 'provider_unavailable',
};

/** The read tools as the proxy runs them: the real GitHub client functions against the loopback server. */
function gitHubTools(apiUrl: string): (tool: string, args: Record<string, unknown>) => Promise<Record<string, unknown>> {
  const client = gitHubClient({ token: TOKEN, apiUrl });
  return async (tool, args) => {
    const { repository, path, ref } = args as { repository: string; path?: string; ref?: string };
    try {
      if (tool === 'github.list_files') return await listFiles(client, repository, ref);
      if (tool === 'github.read_file') return await readFile(client, repository, path as string, ref);
    } catch (error) {
      if (error instanceof ProviderFailure) throw new AgentFailure(failureCodes[error.kind], error.message);
      throw error;
    }
    throw new AgentFailure('unknown_tool', `No tool is named '${tool}'.`);
  };
}

let github: GitHubApiServer;

async function startWith(files: Map<string, string | Buffer>): Promise<void> {
  github = await startGitHubApiServer({ tokens: { [TOKEN]: { login: 'octo', id: 1 } }, repos: { [REPOSITORY]: { default_branch: 'main', private: false, files } } });
}

function gitHubContext(): RecordingContext {
  const context = new RecordingContext();
  context.tools = gitHubTools(github.url);
  return context;
}

const readCalls = (context: RecordingContext) => context.toolCalls.filter((call) => call.tool === 'github.read_file');

afterEach(async () => {
  await github?.close();
});

describe('collectRepositoryEvidence', () => {
  beforeEach(async () => {
    await startWith(modelRepository());
  });

  it('reads the evidence files and names the file and the match behind each piece of evidence', async () => {
    const context = gitHubContext();

    const found = await collectRepositoryEvidence(REPOSITORY, context);

    expect(found.repository).toBe(REPOSITORY);
    expect(found.ref).toBe('main');
    expect(found.files_listed).toBe(10);
    expect(found.files_read.map((file) => file.path)).toEqual([
      'README.md',
      'MODEL_CARD.md',
      'data/datasheet.md',
      'SECURITY.md',
      'docs/ai-governance-policy.md',
      'package.json',
      '.github/workflows/ci.yml',
    ]);
    for (const file of found.files_read) expect(file).toEqual({ path: file.path, size: Buffer.byteLength(modelRepository().get(file.path) as string), truncated: false });
    expect(found.evidence).toEqual([
      { evidence_id: 'instructions_for_use', file: 'README.md', reason: 'heading "Intended use"; heading "Limitations"' },
      { evidence_id: 'technical_documentation', file: 'MODEL_CARD.md', reason: 'heading "Model details"; heading "Training data"' },
      { evidence_id: 'instructions_for_use', file: 'MODEL_CARD.md', reason: 'heading "Intended use"; heading "Limitations"' },
      { evidence_id: 'accuracy_metrics', file: 'MODEL_CARD.md', reason: 'heading "Evaluation"; mentions "accuracy"' },
      { evidence_id: 'bias_testing', file: 'MODEL_CARD.md', reason: 'heading "Fairness evaluation"' },
      { evidence_id: 'training_data_documentation', file: 'data/datasheet.md', reason: 'heading "Composition"' },
      { evidence_id: 'human_oversight_procedure', file: 'docs/ai-governance-policy.md', reason: 'heading "Human oversight"' },
      { evidence_id: 'ai_governance_policy', file: 'docs/ai-governance-policy.md', reason: 'file name "ai-governance-policy.md"; mentions "accountable"' },
      { evidence_id: 'robustness_testing', file: '.github/workflows/ci.yml', reason: 'mentions "test"; mentions "robustness"' },
    ]);
    expect(found.ai_dependencies).toEqual([{ file: 'package.json', name: 'openai' }]);
    expect(found.skipped).toEqual([]);
    expect(found.bounds).toEqual({ max_files: MAX_REPOSITORY_FILES, max_bytes: MAX_REPOSITORY_BYTES, max_file_bytes: MAX_REPOSITORY_FILE_BYTES });
    expect(found.truncated).toBe(false);
  });

  it('lists once, then reads each chosen file at the listed ref, reporting progress twice', async () => {
    const context = gitHubContext();

    await collectRepositoryEvidence(REPOSITORY, context);

    expect(context.toolCalls[0]).toEqual({ tool: 'github.list_files', args: { repository: REPOSITORY } });
    expect(readCalls(context)).toHaveLength(7);
    for (const call of readCalls(context)) expect(call.args).toEqual({ repository: REPOSITORY, path: expect.any(String), ref: 'main' });
    expect(context.progressCalls).toEqual([
      { message: 'Listed 10 files of acme/models; 7 may hold evidence', progress: 0.03 },
      { message: 'Read 7 files of acme/models: 8 evidence items found', progress: 0.08 },
    ]);
  });

  it('passes a requested ref to the listing', async () => {
    const context = gitHubContext();

    const found = await collectRepositoryEvidence(REPOSITORY, context, 'main');

    expect(context.toolCalls[0]).toEqual({ tool: 'github.list_files', args: { repository: REPOSITORY, ref: 'main' } });
    expect(found.ref).toBe('main');
  });

  it('is deterministic: the same repository gives the same tool calls and the same result', async () => {
    const first = gitHubContext();
    const second = gitHubContext();

    const one = await collectRepositoryEvidence(REPOSITORY, first);
    const two = await collectRepositoryEvidence(REPOSITORY, second);

    expect(two).toEqual(one);
    expect(second.toolCalls).toEqual(first.toolCalls);
    expect(second.progressCalls).toEqual(first.progressCalls);
  });

  it('skips a file that cannot be read and reads the rest', async () => {
    const context = gitHubContext();
    const tools = context.tools!;
    // The policy is deleted between the listing and its read: GitHub answers 404.
    context.tools = async (tool, args) => {
      const result = await tools(tool, args);
      if (tool === 'github.list_files') github.state.repos.get(REPOSITORY)!.files.delete('docs/ai-governance-policy.md');
      return result;
    };

    const found = await collectRepositoryEvidence(REPOSITORY, context);

    expect(found.skipped).toEqual([{ path: 'docs/ai-governance-policy.md', reason: 'unreadable' }]);
    expect(found.files_read.map((file) => file.path)).not.toContain('docs/ai-governance-policy.md');
    expect(found.files_read).toHaveLength(6);
    expect(found.evidence.map((item) => item.evidence_id)).not.toContain('ai_governance_policy');
    expect(found.evidence.map((item) => item.evidence_id)).toContain('robustness_testing');
    expect(found.truncated).toBe(false);
  });
});

describe('collectRepositoryEvidence bounds', () => {
  it('reads at most the file bound in priority order and skips files over the per-file bound', async () => {
    const policies = Array.from({ length: 30 }, (_, i) => [`policies/policy-${String(i + 1).padStart(2, '0')}.md`, `# Policy ${i + 1}\n`] as const);
    await startWith(new Map<string, string | Buffer>([['model-card.md', 'x'.repeat(MAX_REPOSITORY_FILE_BYTES + 1)], ...policies]));
    const context = gitHubContext();

    const found = await collectRepositoryEvidence(REPOSITORY, context);

    expect(found.files_listed).toBe(31);
    expect(readCalls(context)).toHaveLength(MAX_REPOSITORY_FILES);
    expect(found.files_read.map((file) => file.path)).toEqual(policies.slice(0, 25).map(([path]) => path));
    expect(found.skipped).toEqual([
      { path: 'model-card.md', reason: 'too_large' },
      ...policies.slice(25).map(([path]) => ({ path, reason: 'file_limit' })),
    ]);
    expect(found.truncated).toBe(true);
  });

  it('stops short of the byte bound, still reading smaller files that fit', async () => {
    const big = (topic: string) => `# ${topic} policy\n${'lorem ipsum '.repeat(7_500)}`;
    const documents = ['governance', 'privacy', 'retention', 'risk', 'security'].map((topic) => [`docs/${topic}.md`, big(topic)] as const);
    await startWith(new Map<string, string | Buffer>([...documents, ['.github/workflows/ci.yml', WORKFLOW]]));
    const context = gitHubContext();

    const found = await collectRepositoryEvidence(REPOSITORY, context);

    const total = found.files_read.reduce((sum, file) => sum + file.size, 0);
    expect(total).toBeLessThanOrEqual(MAX_REPOSITORY_BYTES);
    expect(found.files_read.map((file) => file.path)).toEqual(['docs/governance.md', 'docs/privacy.md', 'docs/retention.md', 'docs/risk.md', '.github/workflows/ci.yml']);
    expect(found.skipped).toEqual([{ path: 'docs/security.md', reason: 'byte_limit' }]);
    expect(readCalls(context).map((call) => call.args.path)).not.toContain('docs/security.md');
    expect(found.truncated).toBe(true);
  });
});

describe('revoked credentials', () => {
  beforeEach(async () => {
    await startWith(modelRepository());
  });

  it('fail the listing with integration_revoked, and the audit with it, before any artifact', async () => {
    github.state.tokens.delete(TOKEN);
    const context = gitHubContext();

    const run = aiReadinessAgent.handlers['ai_readiness.full_audit']({ scope: 'full', repository: REPOSITORY }, context);

    await expect(run).rejects.toBeInstanceOf(AgentFailure);
    await expect(run).rejects.toMatchObject({ code: 'integration_revoked' });
    expect(context.artifacts).toEqual([]);
  });

  it('revoked between two reads fail the task rather than skip the file', async () => {
    const context = gitHubContext();
    const tools = context.tools!;
    context.tools = async (tool, args) => {
      if (tool === 'github.read_file' && args.path === 'data/datasheet.md') github.state.tokens.delete(TOKEN);
      return tools(tool, args);
    };

    const run = collectRepositoryEvidence(REPOSITORY, context);

    await expect(run).rejects.toMatchObject({ name: 'AgentFailure', code: 'integration_revoked' });
    expect(readCalls(context).map((call) => call.args.path)).toEqual(['README.md', 'MODEL_CARD.md', 'data/datasheet.md']);
  });
});

describe('ai_readiness.full_audit with a repository', () => {
  beforeEach(async () => {
    await startWith(modelRepository());
  });

  const creditScorer = { id: 'credit-scorer', name: 'Credit scorer', category: 'essential_services', role: 'provider', makes_decisions_about_people: true };
  const audit = { scope: 'full', systems: [creditScorer], evidence: ['ai_inventory'] };
  const gapIds = (report: AuditReport) => report.recommendations.map((r) => r.gap.split(' ')[0]);

  it('carries the repository evidence in the report, and the evidence closes gaps', async () => {
    const without = new RecordingContext();
    const withRepository = gitHubContext();

    await aiReadinessAgent.handlers['ai_readiness.full_audit'](audit, without);
    await aiReadinessAgent.handlers['ai_readiness.full_audit']({ ...audit, repository: REPOSITORY }, withRepository);

    const before = without.artifact<AuditReport>('ai_readiness.audit_report');
    const after = withRepository.artifact<AuditReport & { repository_evidence: RepositoryEvidence }>('ai_readiness.audit_report');
    expect(without.toolCalls).toEqual([]);
    expect(before).not.toHaveProperty('repository_evidence');
    expect(after.repository_evidence).toEqual(await collectRepositoryEvidence(REPOSITORY, gitHubContext()));
    // The governance policy (HO-02), the oversight section (HO-03) and the model card (TD-02) count.
    expect(gapIds(before)).toEqual(expect.arrayContaining(['EUAIA-HO-02', 'EUAIA-HO-03', 'EUAIA-TD-02']));
    expect(gapIds(after)).not.toContain('EUAIA-HO-02');
    expect(gapIds(after)).not.toContain('EUAIA-HO-03');
    expect(gapIds(after)).not.toContain('EUAIA-TD-02');
    expect(after.eu_ai_act_score).toBeGreaterThan(before.eu_ai_act_score);
  });

  it('reports progress in order, the repository first', async () => {
    const context = gitHubContext();

    await aiReadinessAgent.handlers['ai_readiness.full_audit']({ ...audit, repository: REPOSITORY }, context);

    const fractions = context.progressCalls.map((call) => call.progress);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    expect(context.progressCalls[0].message).toMatch(/^Listed 10 files of acme\/models/);
    expect(context.artifacts.map((artifact) => artifact.type)).toEqual(['ai_readiness.audit_report', 'ai_readiness.gap_summary']);
  });

  it('fails integration_not_bound when the agent has no GitHub integration', async () => {
    const context = new RecordingContext();

    await expect(aiReadinessAgent.handlers['ai_readiness.full_audit']({ ...audit, repository: REPOSITORY }, context)).rejects.toMatchObject({ code: 'integration_not_bound' });
    expect(context.artifacts).toEqual([]);
  });
});

describe('which files are read', () => {
  it.each([
    ['README.md', 'readme'],
    ['README', 'readme'],
    ['docs/README.md', undefined],
    ['models/MODEL_CARD.md', 'model_card'],
    ['model-card.md', 'model_card'],
    ['DATASHEET.md', 'datasheet'],
    ['data/data-card.md', 'datasheet'],
    ['docs/ai-governance-policy.md', 'policy'],
    ['policies/Incident-Response.md', 'policy'],
    ['docs/architecture.md', undefined],
    ['docs/dpia.pdf', undefined],
    ['SECURITY.md', 'policy'],
    ['.github/SECURITY.md', 'policy'],
    ['PRIVACY.md', 'policy'],
    ['package.json', 'dependency_manifest'],
    ['services/api/requirements-dev.txt', 'dependency_manifest'],
    ['node_modules/openai/package.json', undefined],
    ['build.gradle.kts', 'dependency_manifest'],
    ['.github/workflows/eval.yaml', 'ci_config'],
    ['.gitlab-ci.yml', 'ci_config'],
    ['src/index.ts', undefined],
  ])('%s is %s', (path, kind) => {
    expect(repositoryFileKind(path)).toBe(kind);
  });
});

describe('headings', () => {
  it('finds Markdown, AsciiDoc and reStructuredText headings, not code or front matter', () => {
    const text = ['---', 'title: front matter', '---', '# Intended use', 'Text.', '', 'Limitations', '-----------', '```bash', '# a comment', '```', '== Evaluation', 'Bias testing', '~~~~~~~~~~~~', 'Human oversight', '~~~~~~~~~~~~~~~', '- item', '---'].join('\n');

    expect(headingsOf(text)).toEqual(['Intended use', 'Limitations', 'Evaluation', 'Bias testing', 'Human oversight']);
  });
});

describe('full_audit input schema', () => {
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(fullAuditInputSchema);

  it.each([
    [{ scope: 'full', repository: 'acme/models' }, true],
    [{ scope: 'full', repository: 'acme/models.v2', ref: 'release/2025-01' }, true],
    [{ scope: 'full', ref: 'main' }, false],
    [{ scope: 'full', repository: 'acme' }, false],
    [{ scope: 'full', repository: 'acme/models/extra' }, false],
    [{ scope: 'full', repository: 'acme/models', ref: '' }, false],
  ])('%j valid: %s', (input, valid) => {
    expect(validate(input)).toBe(valid);
  });
});

describe('AI libraries in dependency manifests', () => {
  it.each([
    ['requirements.txt', 'Flask==3.0\nTorch>=2.1  # GPU build\n-r base.txt\nscikit_learn==1.5\nrequests\n', ['scikit-learn', 'torch']],
    ['pyproject.toml', '[project]\nname = "scorer"\ndependencies = [\n  "transformers[torch]>=4.40",\n  "pydantic>=2",\n]\n\n[tool.poetry.dependencies]\npython = "^3.12"\nlangchain-openai = "^0.1"\n', ['langchain-openai', 'transformers']],
    ['Pipfile', '[packages]\nanthropic = "*"\nflask = "*"\n', ['anthropic']],
    ['go.mod', 'module acme/scorer\n\nrequire (\n\tgithub.com/sashabaranov/go-openai v1.20.0\n\tgithub.com/gin-gonic/gin v1.9.1\n)\n', ['github.com/sashabaranov/go-openai']],
    ['Cargo.toml', '[dependencies]\nserde = "1"\nasync-openai = "0.20"\n\n[dependencies.candle-core]\nversion = "0.4"\n', ['async-openai', 'candle-core']],
    ['pom.xml', '<project><dependencies><dependency><groupId>dev.langchain4j</groupId><artifactId>langchain4j</artifactId></dependency><dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId></dependency></dependencies></project>', ['dev.langchain4j:langchain4j']],
    ['build.gradle', "dependencies {\n  implementation 'org.tensorflow:tensorflow-core-api:0.5.0'\n  implementation 'com.google.guava:guava:33.0.0-jre'\n}\n", ['org.tensorflow:tensorflow-core-api']],
    ['package.json', '{"dependencies": {"@anthropic-ai/sdk": "^0.30.0", "@langchain/core": "^0.3"}, "devDependencies": {"typescript": "^5"}}', ['@anthropic-ai/sdk', '@langchain/core']],
    ['package.json', 'not json', []],
  ])('%s', (path, content, names) => {
    expect(aiDependenciesOf(path, content)).toEqual(names);
  });
});

describe('documentation', () => {
  it('states the bounds in the input schema and documents every keyword rule', () => {
    const doc = readFileSync(new URL('../../../docs/ai-readiness-rules.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Evidence from a repository'));
    const description = (fullAuditInputSchema.properties as Record<string, { description: string }>).repository.description;

    expect(doc).toContain('## Evidence from a repository');
    expect(description).toContain(`at most ${MAX_REPOSITORY_FILES} files and ${MAX_REPOSITORY_BYTES.toLocaleString('en-GB')} bytes`);
    for (const bound of [MAX_REPOSITORY_FILES, MAX_REPOSITORY_BYTES, MAX_REPOSITORY_FILE_BYTES]) expect(section).toContain(bound.toLocaleString('en-GB'));
    for (const rule of repositoryEvidenceRules) {
      const row = section.split('\n').find((line) => line.startsWith(`| \`${rule.evidence}\` |`));
      expect(row, rule.evidence).toBeDefined();
      for (const phrase of rule.all.flatMap((condition) => [...condition.any, ...(condition.with ?? [])])) expect(row).toContain(`\`${phrase}\``);
    }
  });
});

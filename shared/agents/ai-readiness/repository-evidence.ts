import { AgentFailure, type AgentContext } from '#shared/agents/agent';
import type { EvidenceId } from './evidence-catalogue';

/**
 * Evidence read from a GitHub repository for `ai_readiness.full_audit` (docs/ai-readiness-rules.md,
 * "Evidence from a repository"). The files are chosen from the listing alone, in a fixed order,
 * and evidence comes from fixed keyword rules, so the same repository gives the same tool calls in
 * the same order: what the runtime needs to replay a run from its recorded tool calls.
 */

/** `github.read_file` calls at most. */
export const MAX_REPOSITORY_FILES = 25;
/** Bytes read at most over all files, counted by the sizes the listing gives. */
export const MAX_REPOSITORY_BYTES = 400_000;
/** A larger file is skipped unread. Under the tool's own 200,000-byte cut, so every read is whole. */
export const MAX_REPOSITORY_FILE_BYTES = 100_000;
/** Candidates considered at most, in priority order: keeps the report (part of an artifact) small. */
export const MAX_REPOSITORY_CANDIDATES = 100;

/** Progress reported by the collection: the opening share of the audit, before classification (0.1). */
const LISTED_PROGRESS = 0.03;
const READ_PROGRESS = 0.08;

export type RepositoryFileKind = 'readme' | 'model_card' | 'datasheet' | 'policy' | 'dependency_manifest' | 'ci_config';

/** Why a candidate was not read; the first three are bounds and make the result `truncated`. */
export type SkipReason = 'too_large' | 'file_limit' | 'byte_limit' | 'unreadable';

export interface RepositoryEvidence {
  repository: string;
  /** The ref the files were read at: the input's, else the default branch the listing resolved. */
  ref: string;
  /** Files in the listing (at most the tool's 2,000). */
  files_listed: number;
  files_read: { path: string; size: number; truncated: boolean }[];
  skipped: { path: string; reason: SkipReason }[];
  evidence: { evidence_id: EvidenceId; file: string; reason: string }[];
  /** AI libraries declared in dependency manifests: facts for the report, not evidence. */
  ai_dependencies: { file: string; name: string }[];
  bounds: { max_files: number; max_bytes: number; max_file_bytes: number };
  /** The listing was cut, or a bound left a candidate unread: evidence may be missing. */
  truncated: boolean;
}

// ---------------------------------------------------------------------------------------------
// Which files are read

/** Priority order: when a bound cuts the list, the first kinds are the ones read. */
export const repositoryFileKinds: readonly RepositoryFileKind[] = ['readme', 'model_card', 'datasheet', 'policy', 'dependency_manifest', 'ci_config'];

/** Folders of vendored or generated code: their files say nothing about the repository's own practice. */
const ignoredFolders = new Set(['node_modules', 'vendor', 'third_party', 'third-party', 'bower_components', '.venv', 'venv', 'site-packages', '.tox', 'dist', 'build', 'target']);
/** Documents are read as text: no extension or a text markup one (a PDF would read as noise). */
const documentExtensions = new Set(['', 'md', 'markdown', 'mdx', 'txt', 'rst', 'adoc']);
/** A document under docs/ or policies/ is read when its name contains one of these. */
export const policyNameParts = ['polic', 'governance', 'privacy', 'dpia', 'security', 'risk', 'oversight', 'incident', 'retention', 'bias', 'fairness', 'transparen'];
const dependencyManifests = new Set(['package.json', 'pyproject.toml', 'Pipfile', 'go.mod', 'Cargo.toml', 'pom.xml', 'build.gradle', 'build.gradle.kts']);

/** The kind of a repository file worth reading as evidence, or undefined when it is not read. */
export function repositoryFileKind(path: string): RepositoryFileKind | undefined {
  const segments = path.split('/');
  const name = segments[segments.length - 1];
  const folders = segments.slice(0, -1).map((folder) => folder.toLowerCase());
  if (folders.some((folder) => ignoredFolders.has(folder))) return undefined;
  if (dependencyManifests.has(name) || /^requirements[^/]*\.txt$/.test(name)) return 'dependency_manifest';
  if (/^\.github\/workflows\/[^/]+\.ya?ml$/.test(path) || path === '.gitlab-ci.yml') return 'ci_config';
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf('.');
  const stem = dot > 0 ? lower.slice(0, dot) : lower;
  if (!documentExtensions.has(dot > 0 ? lower.slice(dot + 1) : '')) return undefined;
  if (folders.length === 0 && lower.startsWith('readme')) return 'readme';
  if (/^model[-_]card/.test(lower)) return 'model_card';
  if (/^(datasheet|data[-_]card|dataset[-_]card)/.test(lower)) return 'datasheet';
  // GitHub shows a security policy from the root, .github/ or docs/.
  if (stem === 'security' && (folders.length === 0 || (folders.length === 1 && (folders[0] === '.github' || folders[0] === 'docs')))) return 'policy';
  if (folders.length === 0 && lower.startsWith('privacy')) return 'policy';
  if (folders.some((folder) => folder === 'docs' || folder === 'policies') && policyNameParts.some((part) => stem.includes(part))) return 'policy';
  return undefined;
}

interface Candidate {
  path: string;
  size: number;
  kind: RepositoryFileKind;
}

/** Code-unit order: never depends on the host's locale. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Every file worth reading, by kind priority, then shallower first, then path. */
export function repositoryCandidates(files: readonly { path: string; size: number }[]): Candidate[] {
  const candidates: Candidate[] = [];
  for (const file of files) {
    const kind = repositoryFileKind(file.path);
    if (kind) candidates.push({ path: file.path, size: file.size, kind });
  }
  const depth = (path: string): number => path.split('/').length;
  return candidates.sort(
    (a, b) => repositoryFileKinds.indexOf(a.kind) - repositoryFileKinds.indexOf(b.kind) || depth(a.path) - depth(b.path) || compare(a.path, b.path),
  );
}

// ---------------------------------------------------------------------------------------------
// Evidence from documents

/**
 * Where a condition looks: `title` is the file name (without extension) and the document's first
 * heading, `heading` any heading, `text` the whole file.
 */
type Unit = 'title' | 'heading' | 'text';

interface Condition {
  in: readonly Unit[];
  /** One of these phrases... */
  any: readonly string[];
  /** ...and, when given, one of these in the same title or heading. */
  with?: readonly string[];
}

export interface RepositoryEvidenceRule {
  evidence: EvidenceId;
  kinds: readonly RepositoryFileKind[];
  /** All must hold. */
  all: readonly Condition[];
}

/**
 * The keyword rules, mirrored in docs/ai-readiness-rules.md. Phrases match whole words of the
 * lower-cased text with punctuation as word breaks ("AI-generated" is "ai generated"); a word
 * ending in `*` matches any word it starts. Plurals are listed: nothing is stemmed, so "evals" never
 * matches a shell's `eval`. Conservative on purpose: a file names its subject in its title or a
 * heading, and says what the catalogue asks of the evidence, or it proves nothing.
 */
export const repositoryEvidenceRules: readonly RepositoryEvidenceRule[] = [
  {
    evidence: 'technical_documentation',
    kinds: ['model_card'],
    all: [
      { in: ['heading'], any: ['model details', 'model description', 'model architecture', 'architecture'] },
      { in: ['heading'], any: ['training', 'evaluation'] },
    ],
  },
  {
    evidence: 'instructions_for_use',
    kinds: ['model_card', 'readme'],
    all: [
      { in: ['heading'], any: ['intended use', 'intended uses', 'intended purpose'] },
      { in: ['heading'], any: ['limitations', 'out of scope use', 'out of scope uses'] },
    ],
  },
  {
    evidence: 'accuracy_metrics',
    kinds: ['model_card'],
    all: [
      { in: ['heading'], any: ['evaluation', 'metrics', 'performance', 'results'] },
      { in: ['text'], any: ['accuracy', 'f1', 'auc', 'error rate', 'bleu', 'rouge'] },
    ],
  },
  {
    evidence: 'training_data_documentation',
    kinds: ['datasheet'],
    all: [{ in: ['heading'], any: ['composition', 'collection', 'provenance', 'preprocessing', 'labeling', 'labelling', 'annotation', 'annotations', 'sources'] }],
  },
  {
    evidence: 'bias_testing',
    kinds: ['model_card', 'policy'],
    all: [
      {
        in: ['title', 'heading'],
        any: ['bias', 'biases', 'fairness'],
        with: ['evaluation', 'evaluations', 'testing', 'test', 'tests', 'assessment', 'audit', 'analysis', 'examination', 'metrics', 'results'],
      },
    ],
  },
  {
    evidence: 'human_oversight_procedure',
    kinds: ['model_card', 'policy'],
    all: [{ in: ['title', 'heading'], any: ['human oversight', 'human in the loop', 'human review'] }],
  },
  {
    evidence: 'ai_governance_policy',
    kinds: ['policy'],
    all: [
      { in: ['title'], any: ['ai governance', 'responsible ai', 'ai policy', 'ai use policy', 'ai usage policy', 'artificial intelligence policy', 'artificial intelligence governance'] },
      { in: ['text'], any: ['accountable', 'accountability', 'owner', 'owners'] },
    ],
  },
  {
    evidence: 'data_governance_policy',
    kinds: ['policy'],
    all: [
      { in: ['title'], any: ['data governance'] },
      { in: ['text'], any: ['ai', 'artificial intelligence', 'machine learning', 'training data'] },
      { in: ['text'], any: ['provenance', 'lineage', 'labelling', 'labeling', 'data quality'] },
    ],
  },
  {
    evidence: 'transparency_policy',
    kinds: ['policy'],
    all: [
      { in: ['title'], any: ['transparency'] },
      { in: ['text'], any: ['ai generated', 'interacting with an ai', 'interacting with ai', 'ai interaction', 'ai interactions', 'chatbot', 'chatbots'] },
    ],
  },
  {
    evidence: 'ai_security_policy',
    kinds: ['policy'],
    all: [
      { in: ['title'], any: ['security'] },
      {
        in: ['text'],
        any: ['prompt injection', 'data poisoning', 'model poisoning', 'training data poisoning', 'adversarial example', 'adversarial examples', 'model evasion', 'evasion attack', 'evasion attacks', 'model inversion', 'model extraction'],
      },
    ],
  },
  {
    evidence: 'dpia',
    kinds: ['policy'],
    all: [{ in: ['title'], any: ['dpia', 'data protection impact assessment', 'privacy impact assessment'] }],
  },
  {
    evidence: 'risk_management_system',
    kinds: ['policy'],
    all: [
      { in: ['title'], any: ['ai risk management', 'ai risk assessment', 'model risk management'] },
      { in: ['text'], any: ['mitigat*'] },
    ],
  },
  {
    evidence: 'incident_response_plan',
    kinds: ['policy'],
    all: [
      { in: ['title', 'heading'], any: ['incident response', 'incident management'] },
      { in: ['text'], any: ['notify', 'notified', 'notification', 'notifications'] },
    ],
  },
  {
    evidence: 'serious_incident_procedure',
    kinds: ['policy'],
    all: [
      { in: ['text'], any: ['serious incident', 'serious incidents'] },
      { in: ['text'], any: ['market surveillance'] },
    ],
  },
  {
    evidence: 'records_retention_policy',
    kinds: ['policy'],
    all: [
      { in: ['title'], any: ['retention'] },
      { in: ['text'], any: ['technical documentation'] },
      { in: ['text'], any: ['log', 'logs', 'logging'] },
    ],
  },
  {
    evidence: 'data_retention_policy',
    kinds: ['policy'],
    all: [
      { in: ['title'], any: ['retention'] },
      { in: ['text'], any: ['personal data', 'customer data', 'user data'] },
      { in: ['text'], any: ['delete', 'deleted', 'deletion', 'erase', 'erasure'] },
    ],
  },
  {
    evidence: 'robustness_testing',
    kinds: ['ci_config'],
    all: [
      { in: ['text'], any: ['test', 'tests', 'pytest', 'evals', 'evaluation'] },
      { in: ['text'], any: ['robustness', 'adversarial', 'evals', 'evaluation'] },
    ],
  },
];

/** Lower-cased words joined by single spaces; punctuation and markup are word breaks. */
function words(text: string): string {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).join(' ');
}

const phrasePatterns = new Map<string, RegExp>();

function phrasePattern(phrase: string): RegExp {
  let pattern = phrasePatterns.get(phrase);
  if (!pattern) {
    const body = phrase.split(' ').map((word) => (word.endsWith('*') ? `${word.slice(0, -1)}[a-z0-9]*` : word)).join(' ');
    pattern = new RegExp(`(?:^| )${body}(?= |$)`);
    phrasePatterns.set(phrase, pattern);
  }
  return pattern;
}

const firstPhrase = (text: string, phrases: readonly string[]): string | undefined => phrases.find((phrase) => phrasePattern(phrase).test(text));

interface Labelled {
  /** How a reason names it: `file name "x.md"`, `heading "Intended use"`. */
  label: string;
  words: string;
}

interface Document {
  kind: RepositoryFileKind;
  title: Labelled[];
  headings: Labelled[];
  text: string;
}

/** YAML front matter (a Hugging Face model card's metadata) holds no headings. */
function withoutFrontMatter(content: string): string {
  if (!/^---\r?\n/.test(content)) return content;
  const end = /\r?\n---[ \t]*(?:\r?\n|$)/.exec(content.slice(3));
  return end ? content.slice(3 + end.index + end[0].length) : content;
}

const underline = /^ {0,3}(?:={3,}|-{3,}|~{3,})\s*$/;

/** Markdown (ATX and setext), AsciiDoc and reStructuredText headings, outside fenced code. */
export function headingsOf(content: string): string[] {
  const lines = withoutFrontMatter(content).split(/\r?\n/);
  const headings: string[] = [];
  let fence: string | undefined;
  let underlined = false;
  for (const [index, line] of lines.entries()) {
    // An underline already taken for a heading ("Title" over "~~~~~" in reStructuredText) opens no fence.
    if (underlined) {
      underlined = false;
      continue;
    }
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1][0];
    if (fenceMark) {
      if (fence === undefined) fence = fenceMark;
      else if (fence === fenceMark) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const marked = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line) ?? /^={1,6}[ \t]+(.+?)[ \t]*$/.exec(line);
    if (marked) {
      if (marked[1].trim()) headings.push(marked[1].trim());
      continue;
    }
    const next = lines[index + 1];
    const text = line.trim();
    if (next !== undefined && text && !underline.test(line) && !/^ {4}/.test(line) && !/^([-*+>|]|\d+[.)])\s/.test(text) && underline.test(next)) {
      headings.push(text);
      underlined = true;
    }
  }
  return headings;
}

const quoted = (text: string): string => `"${text.replace(/\s+/g, ' ').slice(0, 80)}"`;

function documentOf(path: string, kind: RepositoryFileKind, content: string): Document {
  const name = path.split('/').pop() as string;
  const dot = name.lastIndexOf('.');
  const headings = headingsOf(content).map((heading) => ({ label: `heading ${quoted(heading)}`, words: words(heading) }));
  const title: Labelled[] = [{ label: `file name ${quoted(name)}`, words: words(dot > 0 ? name.slice(0, dot) : name) }];
  if (headings.length > 0) title.push({ label: headings[0].label.replace(/^heading/, 'title'), words: headings[0].words });
  return { kind, title, headings, text: words(content) };
}

/** The reason part for a condition that holds, or undefined. */
function holds(condition: Condition, document: Document): string | undefined {
  for (const unit of condition.in) {
    if (unit === 'text') {
      const phrase = firstPhrase(document.text, condition.any);
      if (phrase) return `mentions "${phrase}"`;
      continue;
    }
    for (const candidate of unit === 'title' ? document.title : document.headings) {
      const phrase = firstPhrase(candidate.words, condition.any);
      if (phrase && (!condition.with || firstPhrase(candidate.words, condition.with))) return candidate.label;
    }
  }
  return undefined;
}

/** Evidence one file shows, in rule order, each with the titles, headings or phrases that matched. */
export function evidenceFromFile(path: string, kind: RepositoryFileKind, content: string): { evidence_id: EvidenceId; file: string; reason: string }[] {
  const document = documentOf(path, kind, content);
  const found: { evidence_id: EvidenceId; file: string; reason: string }[] = [];
  for (const rule of repositoryEvidenceRules) {
    if (!rule.kinds.includes(kind)) continue;
    const reasons: string[] = [];
    const every = rule.all.every((condition) => {
      const reason = holds(condition, document);
      if (reason && !reasons.includes(reason)) reasons.push(reason);
      return reason !== undefined;
    });
    if (every) found.push({ evidence_id: rule.evidence, file: path, reason: reasons.join('; ') });
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// AI libraries in dependency manifests

type Ecosystem = 'npm' | 'python' | 'go' | 'cargo' | 'maven';

/** Libraries reported as `ai_dependencies`; a name ending in `*` matches any name it starts. */
export const aiLibraries: Record<Ecosystem, readonly string[]> = {
  npm: [
    'openai', '@anthropic-ai/*', 'anthropic', 'langchain', '@langchain/*', 'llamaindex', '@llamaindex/*', 'ai', '@ai-sdk/*',
    '@google/generative-ai', '@google/genai', '@mistralai/mistralai', 'cohere-ai', 'groq-sdk', 'ollama', 'replicate',
    '@huggingface/inference', '@huggingface/transformers', '@xenova/transformers', '@tensorflow/tfjs*', 'onnxruntime-node',
    'onnxruntime-web', '@aws-sdk/client-bedrock-runtime', '@azure/openai',
  ],
  python: [
    'openai', 'anthropic', 'langchain', 'langchain-*', 'llama-index', 'llama-index-*', 'transformers', 'sentence-transformers',
    'huggingface-hub', 'diffusers', 'peft', 'accelerate', 'torch', 'torchvision', 'pytorch-lightning', 'tensorflow', 'tensorflow-*',
    'keras', 'jax', 'scikit-learn', 'sklearn', 'xgboost', 'lightgbm', 'catboost', 'onnxruntime', 'vllm', 'cohere', 'mistralai',
    'google-generativeai', 'google-genai', 'litellm', 'ollama', 'groq', 'tiktoken', 'spacy',
  ],
  go: [
    'github.com/sashabaranov/go-openai', 'github.com/openai/openai-go*', 'github.com/anthropics/anthropic-sdk-go*',
    'github.com/tmc/langchaingo*', 'github.com/ollama/ollama*', 'github.com/google/generative-ai-go*', 'google.golang.org/genai*',
    'github.com/pkoukk/tiktoken-go',
  ],
  cargo: ['async-openai', 'openai-api-rs', 'tch', 'candle-core', 'candle-nn', 'candle-transformers', 'burn', 'ort', 'tokenizers', 'rust-bert', 'linfa', 'smartcore', 'ollama-rs', 'langchain-rust', 'llm'],
  maven: [
    'com.openai:*', 'com.anthropic:*', 'dev.langchain4j:*', 'org.springframework.ai:*', 'ai.djl:*', 'ai.djl.*', 'org.tensorflow:*',
    'org.deeplearning4j:*', 'com.theokanning.openai-gpt3-java:*', 'com.azure:azure-ai-openai', 'com.google.genai:*', 'com.microsoft.onnxruntime:*',
  ],
};

const matchesLibrary = (name: string, pattern: string): boolean => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern);

/** PEP 503: case and runs of `-`, `_`, `.` do not tell Python packages apart. */
const pythonName = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');

const requirementName = (requirement: string): string | undefined => /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement)?.[1];

function packageJsonNames(content: string): string[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(content);
  } catch {
    return [];
  }
  if (typeof manifest !== 'object' || manifest === null) return [];
  const names: string[] = [];
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    const section = (manifest as Record<string, unknown>)[field];
    if (typeof section === 'object' && section !== null && !Array.isArray(section)) names.push(...Object.keys(section));
  }
  return names;
}

function requirementsNames(content: string): string[] {
  return content
    .split(/\r?\n/)
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line && !line.startsWith('-'))
    .map((line) => requirementName(line))
    .filter((name): name is string => name !== undefined)
    .map(pythonName);
}

/**
 * Dependency names in the TOML manifests (pyproject.toml, Pipfile, Cargo.toml), read line by line:
 * keys of dependency tables, `[dependencies.<name>]` headers, and the requirement strings of
 * `[project] dependencies = [...]`, `[project.optional-dependencies]` and `[dependency-groups]`.
 */
function tomlNames(content: string): string[] {
  const names: string[] = [];
  const requirements = (text: string) => {
    for (const match of text.matchAll(/"([^"]*)"|'([^']*)'/g)) {
      const name = requirementName(match[1] ?? match[2]);
      if (name) names.push(name);
    }
  };
  let section = '';
  let inArray = false;
  for (const line of content.split(/\r?\n/)) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
    if (header && !inArray) {
      section = header[1].replace(/["']/g, '');
      inArray = false;
      const named = /(?:^|\.)(?:dependencies|dev-dependencies|build-dependencies)\.([A-Za-z0-9_.-]+)$/.exec(section);
      if (named) names.push(named[1]);
      continue;
    }
    if (inArray) {
      requirements(line);
      if (line.replace(/"[^"]*"|'[^']*'/g, '').includes(']')) inArray = false;
      continue;
    }
    const entry = /^\s*["']?([A-Za-z0-9_.-]+)["']?\s*=\s*(.*)$/.exec(line);
    if (!entry) continue;
    const [, key, value] = entry;
    const listsRequirements = (section === 'project' && key === 'dependencies') || section === 'project.optional-dependencies' || section === 'dependency-groups';
    if (listsRequirements) {
      if (!value.trimStart().startsWith('[')) continue;
      requirements(value);
      inArray = !value.replace(/"[^"]*"|'[^']*'/g, '').includes(']');
    } else if (/(?:^|\.)(?:dependencies|dev-dependencies|build-dependencies)$/.test(section) || section === 'packages' || section === 'dev-packages') {
      if (key !== 'python') names.push(key);
    }
  }
  return names;
}

function goModNames(content: string): string[] {
  const names: string[] = [];
  let block = false;
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (/^require\s*\($/.test(line)) block = true;
    else if (block && line === ')') block = false;
    else if (block && line) names.push(line.split(/\s+/)[0]);
    else if (/^require\s+\S/.test(line)) names.push(line.split(/\s+/)[1]);
  }
  return names;
}

function pomNames(content: string): string[] {
  const names: string[] = [];
  for (const [, body] of content.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
    const group = /<groupId>\s*([^<\s]+)\s*<\/groupId>/.exec(body)?.[1];
    const artifact = /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/.exec(body)?.[1];
    if (group && artifact) names.push(`${group}:${artifact}`);
  }
  return names;
}

function gradleNames(content: string): string[] {
  return [...content.matchAll(/["']([A-Za-z0-9_.-]+):([A-Za-z0-9_.-]+)(?::[^"'\s]*)?["']/g)].map(([, group, artifact]) => `${group}:${artifact}`);
}

/** The AI libraries a dependency manifest declares, sorted, each once. */
export function aiDependenciesOf(path: string, content: string): string[] {
  const name = path.split('/').pop() as string;
  let ecosystem: Ecosystem;
  let declared: string[];
  if (name === 'package.json') [ecosystem, declared] = ['npm', packageJsonNames(content)];
  else if (name === 'pyproject.toml' || name === 'Pipfile') [ecosystem, declared] = ['python', tomlNames(content).map(pythonName)];
  else if (name.startsWith('requirements')) [ecosystem, declared] = ['python', requirementsNames(content)];
  else if (name === 'go.mod') [ecosystem, declared] = ['go', goModNames(content)];
  else if (name === 'Cargo.toml') [ecosystem, declared] = ['cargo', tomlNames(content).map((crate) => crate.toLowerCase())];
  else if (name === 'pom.xml') [ecosystem, declared] = ['maven', pomNames(content)];
  else [ecosystem, declared] = ['maven', gradleNames(content)];
  const found = new Set(declared.filter((dependency) => aiLibraries[ecosystem].some((pattern) => matchesLibrary(dependency, pattern))));
  return [...found].sort(compare);
}

// ---------------------------------------------------------------------------------------------
// Collection

function listingOf(result: Record<string, unknown>, requestedRef: string | undefined): { ref: string; files: { path: string; size: number }[]; truncated: boolean } {
  const files = (Array.isArray(result.files) ? result.files : [])
    .filter((file): file is { path: string; size: number } => typeof file?.path === 'string' && typeof file?.size === 'number');
  const ref = typeof result.ref === 'string' ? result.ref : (requestedRef ?? '');
  return { ref, files, truncated: result.truncated === true };
}

/**
 * Reads the repository's evidence files through the agent's GitHub integration: lists the files,
 * reads the candidates in priority order within the bounds, and derives evidence ids by the
 * keyword rules. A file that cannot be read (`tool_call_rejected`) is skipped; any other tool
 * failure (a revoked or missing integration, GitHub down) propagates and fails the task.
 */
export async function collectRepositoryEvidence(repository: string, context: AgentContext, ref?: string): Promise<RepositoryEvidence> {
  const listing = listingOf(await context.callTool('github.list_files', { repository, ...(ref ? { ref } : {}) }), ref);
  const candidates = repositoryCandidates(listing.files);
  const considered = candidates.slice(0, MAX_REPOSITORY_CANDIDATES);
  await context.progress(`Listed ${listing.files.length} files of ${repository}; ${considered.length} may hold evidence`, LISTED_PROGRESS);

  const filesRead: RepositoryEvidence['files_read'] = [];
  const skipped: RepositoryEvidence['skipped'] = [];
  const evidence: RepositoryEvidence['evidence'] = [];
  const aiDependencies: RepositoryEvidence['ai_dependencies'] = [];
  let calls = 0;
  let bytes = 0;
  for (const candidate of considered) {
    if (candidate.size > MAX_REPOSITORY_FILE_BYTES) {
      skipped.push({ path: candidate.path, reason: 'too_large' });
      continue;
    }
    if (calls >= MAX_REPOSITORY_FILES) {
      skipped.push({ path: candidate.path, reason: 'file_limit' });
      continue;
    }
    // Later, smaller files may still fit: the budget is spent in priority order, not cut at the first miss.
    if (bytes + candidate.size > MAX_REPOSITORY_BYTES) {
      skipped.push({ path: candidate.path, reason: 'byte_limit' });
      continue;
    }
    calls += 1;
    let answer: Record<string, unknown>;
    try {
      answer = await context.callTool('github.read_file', { repository, path: candidate.path, ...(listing.ref ? { ref: listing.ref } : {}) });
    } catch (error) {
      // Deleted since the listing, or not a file after all: the rest of the repository still counts.
      if (error instanceof AgentFailure && error.code === 'tool_call_rejected') {
        skipped.push({ path: candidate.path, reason: 'unreadable' });
        continue;
      }
      throw error;
    }
    bytes += candidate.size;
    const content = typeof answer.content === 'string' ? answer.content : '';
    filesRead.push({ path: candidate.path, size: typeof answer.size === 'number' ? answer.size : candidate.size, truncated: answer.truncated === true });
    if (candidate.kind === 'dependency_manifest') {
      for (const name of aiDependenciesOf(candidate.path, content)) aiDependencies.push({ file: candidate.path, name });
    } else {
      evidence.push(...evidenceFromFile(candidate.path, candidate.kind, content));
    }
  }

  const bounded = listing.truncated || candidates.length > considered.length || filesRead.some((file) => file.truncated) || skipped.some((skip) => skip.reason !== 'unreadable');
  const found = new Set(evidence.map((item) => item.evidence_id)).size;
  await context.progress(`Read ${filesRead.length} files of ${repository}: ${found} evidence ${found === 1 ? 'item' : 'items'} found`, READ_PROGRESS);
  return {
    repository,
    ref: listing.ref,
    files_listed: listing.files.length,
    files_read: filesRead,
    skipped,
    evidence,
    ai_dependencies: aiDependencies,
    bounds: { max_files: MAX_REPOSITORY_FILES, max_bytes: MAX_REPOSITORY_BYTES, max_file_bytes: MAX_REPOSITORY_FILE_BYTES },
    truncated: bounded,
  };
}

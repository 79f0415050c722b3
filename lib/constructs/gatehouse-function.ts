import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { basename, join } from 'node:path';
import { Annotations, AssetHashType, DockerImage, Duration, type ILocalBundling } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing, type FunctionProps } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IEmailIdentity } from 'aws-cdk-lib/aws-ses';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import type { RouteAccess } from '#functions/routes';
import type { SECRET_CIPHER_ENV, SecretCipherBackend } from '#shared/adapters/crypto/secret-cipher';
import type { INTEGRATIONS_KEY_ENV } from '#shared/adapters/crypto/integration-cipher';
import type { PAGE_CURSOR_CONTEXT, PAGE_CURSOR_ENV } from '#shared/adapters/crypto/page-cursor-key';
import type { TOOL_PROXY_FUNCTION_ENV } from '#shared/adapters/lambda/tool-proxy-client';
import type { MailerBackend } from '#shared/adapters/mail/mailer';
import { INBOUND_MAIL_DOMAIN_ENV, INBOUND_MAIL_SWITCH_ENV } from '#shared/config/inbound-mail';
import { RETENTION_QUEUE, SCAN_DETECTOR_QUEUE, TASK_QUEUES, TOOL_CALL_QUEUE, WEBHOOK_DELIVERY_QUEUE, type FunctionAccess } from '#shared/config/topology';
import type { ScheduleTarget } from '#shared/domain/scheduler';
import type { TaskPriority } from '#shared/domain/task';
import type { Schedules } from '#lib/constructs/schedules';
import { API_LIMITS, EVENT_TRIGGER_LIMITS, limitEnvironment, rateLimitWriteStatement, WORKER_LIMITS } from '#lib/constructs/limit-settings';
import { installedPackages, writeCompanions } from '#lib/bundling/companions';
import { BUNDLE_ENTRY_NAME, FUNCTION_BUNDLING, FUNCTION_NODE_OPTIONS } from '#lib/bundling/esbuild-options';
import { acknowledgeFunctionFindings } from '#lib/nag';

/** The repository root: handler files in the route table and topology are relative to it. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `functions/tasks/create-task.ts` → `CreateTask`: handler files are unique in the route table. */
export function functionId(handlerFile: string): string {
  return basename(handlerFile, '.ts')
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

export interface GatehouseFunctionProps extends Omit<FunctionProps, 'code' | 'handler' | 'runtime' | 'timeout'> {
  /** Handler file relative to the repository root, as routes.ts and topology.ts declare it. */
  handlerFile: string;
  /** Required: API handlers and queue consumers have very different budgets. */
  timeout: Duration;
}

/** An access declaration: a route's (routes.ts) or a consumer's or schedule target's (topology.ts). */
export type AccessDeclaration = RouteAccess | FunctionAccess;

/** The sender of approved mail, from the stack parameters `MailFrom` and `MailFromIdentity`. */
export interface MailSettings {
  /** MAIL_FROM, e.g. `Gatehouse <no-reply@example.com>`. */
  from: string;
  /** The SES identity (domain or address) that `from` sends as; `ses:SendEmail` is scoped to it. */
  identity: IEmailIdentity;
}

/** The access flags `bindData` grants; any other flag set in a declaration gets a synth warning. */
const BOUND_FLAGS: ReadonlySet<string> = new Set(['table', 'dispatchTasks', 'dispatchToolCalls', 'schedules', 'sendMail', 'dispatchDeliveries', 'encryptSecrets', 'decryptSecrets', 'encryptCredentials', 'decryptCredentials', 'invokeToolProxy', 'inboundMail', 'dispatchScans', 'exportBucket', 'dispatchRetention', 'rateLimit', 'taskSlots', 'eventTriggers']);

/**
 * The secret cipher's environment names, as secret-cipher.ts declares them. Written out rather than
 * imported: that module loads the KMS client, which synth does not need; the type keeps them in step.
 */
const CIPHER_ENV: Pick<typeof SECRET_CIPHER_ENV, 'backend' | 'kmsKeyId'> = { backend: 'SECRET_CIPHER_BACKEND', kmsKeyId: 'SECRETS_KMS_KEY_ID' };
const INTEGRATIONS_KEY: typeof INTEGRATIONS_KEY_ENV = 'INTEGRATIONS_KMS_KEY_ID';
const TOOL_PROXY_NAME: typeof TOOL_PROXY_FUNCTION_ENV = 'TOOL_PROXY_FUNCTION_NAME';
/** The encryption context every integration ciphertext carries (credentialContext): KMS grants hold for it only. */
const CREDENTIALS_PURPOSE = { 'kms:EncryptionContext:purpose': 'integration-credentials' };
/** The page cursor key's environment name and encryption context, as page-cursor-key.ts declares them. */
const PAGE_CURSOR_KEY: typeof PAGE_CURSOR_ENV.kmsKeyId = 'PAGE_CURSOR_KMS_KEY_ID';
const PAGE_CURSOR_PURPOSE: typeof PAGE_CURSOR_CONTEXT.purpose = 'page-cursor';
/** The partition of the page cursor secret's item (entities/page-cursor-secret.ts). */
const PAGE_CURSOR_PARTITION = 'PAGECURSOR';

/**
 * What a function may be bound to. Task queues are keyed by priority so their URL env names are
 * known. `scheduleTargets` are the functions one-time schedules invoke, by target name.
 */
export interface DataResources {
  table: ITable;
  taskQueues: Record<TaskPriority, IQueue>;
  toolCallQueue: IQueue;
  /** Webhook delivery attempts (`WEBHOOK_DELIVERY_QUEUE`). */
  deliveryQueue: IQueue;
  /** The customer-managed key webhook signing secrets are encrypted under. */
  secretsKey: IKey;
  /** The key integration credentials are sealed under (envelope encryption); only the tool proxy opens them. */
  integrationsKey: IKey;
  /** The tool proxy, once created (Tasks creates it first): what `invokeToolProxy` may invoke. */
  toolProxy?: IFunction;
  /** Detector runs of scans (`SCAN_DETECTOR_QUEUE`). */
  scanQueue: IQueue;
  /** Retention re-stamp jobs (`RETENTION_QUEUE`). */
  retentionQueue: IQueue;
  /** Large scan exports, reached through presigned links. */
  exportBucket: IBucket;
  schedules: Schedules;
  scheduleTargets: Record<ScheduleTarget, IFunction>;
  mail: MailSettings;
  /**
   * What `inboundMail` sets, once decided: the domain mail triggers' addresses are at (the
   * `InboundMailDomain` parameter of InboundMail), or `off` where the stack has no inbound mail.
   */
  inboundMail?: { domain: string } | 'off';
}

/**
 * Bundles one handler with the local esbuild (lib/bundling/esbuild-options.ts) into the asset
 * directory CDK hands it, companion files included. Its fields are data on purpose: CDK keys its
 * asset cache on the JSON of the bundling options, methods left out, so without the handler file
 * every function would share one cache entry and so one bundle.
 */
class EsbuildBundling implements ILocalBundling {
  public constructor(public readonly handlerFile: string) {}

  public tryBundle(outputDir: string): boolean {
    buildSync({ ...FUNCTION_BUNDLING, external: installedPackages(this.handlerFile), absWorkingDir: REPO_ROOT, entryPoints: [join(REPO_ROOT, this.handlerFile)], outdir: outputDir });
    writeCompanions(this.handlerFile, REPO_ROOT, outputDir);
    return true;
  }
}

/**
 * Our Lambda defaults, held once: Node 24 (nodejs24.x) on Graviton, code-split ESM bundles built by the local
 * esbuild (synth works offline, without Docker), source maps, X-Ray, and a log group with
 * retention created here rather than left to Lambda (which would keep logs forever).
 *
 * A `Function` with its own bundling rather than a `NodejsFunction`: that one always passes esbuild
 * `--outfile=index.mjs`, and code splitting (each `await import()` a file loaded on first use, not
 * code parsed at every cold start) needs `--outdir`.
 */
export class GatehouseFunction extends LambdaFunction {
  public constructor(scope: Construct, id: string, props: GatehouseFunctionProps) {
    const { handlerFile, environment, ...rest } = props;
    const entry = join(REPO_ROOT, handlerFile);
    // Checked even when synth skips bundling (`aws:cdk:bundling-stacks`), as NodejsFunction does.
    if (!existsSync(entry)) throw new Error(`GatehouseFunction ${id}: handler file ${handlerFile} does not exist under ${REPO_ROOT}`);
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH });
    // A role of our own instead of Lambda's default, whose managed AWSLambdaBasicExecutionRole lets
    // it create log groups and write to any of them: this one writes to its own log group only.
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    super(scope, id, {
      memorySize: 512,
      ...rest,
      // The hash of the bundle, not of the repository: a change elsewhere redeploys nothing. The
      // image is never pulled: local bundling always succeeds or throws.
      code: Code.fromAsset(REPO_ROOT, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: { image: DockerImage.fromRegistry('dummy'), local: new EsbuildBundling(handlerFile) },
      }),
      handler: `${BUNDLE_ENTRY_NAME}.handler`,
      runtime: Runtime.NODEJS_24_X,
      // Graviton unless a function needs a binary built for x86_64 (the detector worker's Chromium).
      architecture: rest.architecture ?? Architecture.ARM_64,
      tracing: Tracing.ACTIVE,
      environment: { NODE_OPTIONS: FUNCTION_NODE_OPTIONS, ...environment },
      role,
      logGroup,
    });
    acknowledgeFunctionFindings(this, role);
  }

  /**
   * Page cursors are signed with a key derived from a secret kept in the table, wrapped under the
   * table's KMS key (shared/adapters/crypto/page-cursor-key.ts): every table user may create it
   * once (GenerateDataKeyWithoutPlaintext) and unwrap it, for that encryption context only; a
   * read-only function may write that one item and nothing else.
   */
  private bindPageCursorSecret(table: ITable, readOnly: boolean): void {
    if (!table.encryptionKey) return;
    this.addEnvironment(PAGE_CURSOR_KEY, table.encryptionKey.keyArn);
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['kms:GenerateDataKeyWithoutPlaintext', 'kms:Decrypt'],
        resources: [table.encryptionKey.keyArn],
        conditions: { StringEquals: { 'kms:EncryptionContext:purpose': PAGE_CURSOR_PURPOSE } },
      }),
    );
    if (readOnly) {
      this.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [table.tableArn], conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [PAGE_CURSOR_PARTITION] } } }));
    }
  }

  /**
   * Gives the function exactly the access its declaration says, and the environment that goes with
   * it, nothing more: the table (TABLE_NAME; read or read/write, or nothing for `none`); the
   * task queues (their URLs, send only) for `dispatchTasks`; the tool-call queue (its URL, send
   * only) for `dispatchToolCalls`; one-time schedules in the service's group for `schedules`;
   * SES as the configured sender for `sendMail`; the webhook delivery queue (its URL, send only)
   * for `dispatchDeliveries`; the secrets key with `kms:Encrypt` only for `encryptSecrets` and
   * `kms:Decrypt` only for `decryptSecrets` (with the KMS cipher's environment for either); the
   * retention re-stamp queue (its URL, send only) for `dispatchRetention`; the integrations key
   * with `kms:GenerateDataKey` for `encryptCredentials` and `kms:Decrypt` for `decryptCredentials`,
   * each for integration credentials only (their encryption context); `lambda:InvokeFunction` on
   * the tool proxy for `invokeToolProxy`; the inbound mail domain (no grant), or `GATEHOUSE_INBOUND_MAIL=off`, for `inboundMail`.
   *
   * The delivery queue's dead-letter queue is not granted here: only the queue's consumer writes
   * to it (retries exhausted), and the construct wiring consumers to their queues grants that.
   */
  public bindData(access: AccessDeclaration, resources: DataResources): void {
    const { table, taskQueues, toolCallQueue, deliveryQueue, secretsKey, schedules, scheduleTargets, mail } = resources;
    // A flag declared but not granted here would deploy a function that fails at its first call.
    const unbound = Object.entries(access).filter(([flag, value]) => value && !BOUND_FLAGS.has(flag)).map(([flag]) => flag);
    if (unbound.length > 0) {
      Annotations.of(this).addWarningV2('gatehouse:unbound-access', `Access declared but not granted by bindData: ${unbound.join(', ')}.`);
    }
    if (access.table !== 'none') {
      this.addEnvironment('TABLE_NAME', table.tableName);
      if (access.table === 'read_write') table.grantReadWriteData(this);
      else table.grantReadData(this);
      this.bindPageCursorSecret(table, access.table === 'read');
    }

    // Authenticated routes write their tenant's request budget, read-only ones included (only that).
    if ('rateLimit' in access && access.rateLimit) {
      for (const [name, value] of Object.entries(limitEnvironment(this, API_LIMITS))) this.addEnvironment(name, value);
      if (access.table === 'read') this.addToRolePolicy(rateLimitWriteStatement(table));
    }
    if ('taskSlots' in access && access.taskSlots) {
      for (const [name, value] of Object.entries(limitEnvironment(this, WORKER_LIMITS))) this.addEnvironment(name, value);
    }
    if ('eventTriggers' in access && access.eventTriggers) {
      for (const [name, value] of Object.entries(limitEnvironment(this, EVENT_TRIGGER_LIMITS))) this.addEnvironment(name, value);
    }

    if (access.dispatchTasks) {
      for (const [priority, queue] of Object.entries(taskQueues) as [TaskPriority, IQueue][]) {
        this.addEnvironment(TASK_QUEUES[priority].urlEnv, queue.queueUrl);
        queue.grantSendMessages(this);
      }
    }

    if (access.dispatchToolCalls) {
      this.addEnvironment(TOOL_CALL_QUEUE.urlEnv, toolCallQueue.queueUrl);
      toolCallQueue.grantSendMessages(this);
    }

    if (access.schedules) schedules.grantScheduling(this, scheduleTargets);

    if ('sendMail' in access && access.sendMail) {
      this.addEnvironment('MAILER_BACKEND', 'ses' satisfies MailerBackend);
      this.addEnvironment('MAIL_FROM', mail.from);
      // ses:SendEmail and ses:SendRawEmail (CDK's sending pair) on the one identity the sender
      // belongs to (MailFromIdentity), not `identity/*`: the function cannot send as any other
      // verified domain or address of the account. The parameter exists because the identity is
      // not always derivable from MAIL_FROM (a verified domain covers all its addresses).
      mail.identity.grantSendEmail(this);
    }

    if (access.dispatchDeliveries) {
      this.addEnvironment(WEBHOOK_DELIVERY_QUEUE.urlEnv, deliveryQueue.queueUrl);
      deliveryQueue.grantSendMessages(this);
    }

    if ('dispatchScans' in access && access.dispatchScans) {
      this.addEnvironment(SCAN_DETECTOR_QUEUE.urlEnv, resources.scanQueue.queueUrl);
      resources.scanQueue.grantSendMessages(this);
    }

    if (access.dispatchRetention) {
      this.addEnvironment(RETENTION_QUEUE.urlEnv, resources.retentionQueue.queueUrl);
      resources.retentionQueue.grantSendMessages(this);
    }

    if ('exportBucket' in access && access.exportBucket) {
      this.addEnvironment('EXPORT_BUCKET', resources.exportBucket.bucketName);
      // Put the export, and read it: the presigned GET is signed with this function's role. Exactly
      // these two object actions, not grantPut/grantRead (their s3:Abort*, s3:GetObject*, s3:List*, ...).
      this.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject'], resources: [resources.exportBucket.arnForObjects('*')] }));
    }

    const encrypts = 'encryptSecrets' in access && Boolean(access.encryptSecrets);
    const decrypts = 'decryptSecrets' in access && Boolean(access.decryptSecrets);
    if (encrypts || decrypts) {
      this.addEnvironment(CIPHER_ENV.backend, 'kms' satisfies SecretCipherBackend);
      // The key ARN, not the alias: Decrypt names the key, so KMS refuses another key's ciphertext.
      this.addEnvironment(CIPHER_ENV.kmsKeyId, secretsKey.keyArn);
      // Exactly the one operation each side needs, on the one key: not `grantEncrypt`/`grantDecrypt`,
      // which add ReEncrypt* and GenerateDataKey*. The cipher calls Encrypt and Decrypt directly.
      if (encrypts) secretsKey.grant(this, 'kms:Encrypt');
      if (decrypts) secretsKey.grant(this, 'kms:Decrypt');
    }

    // Integration credentials: routes that connect seal them with a fresh data key; only the tool
    // proxy opens them. Both only for ciphertexts whose context says they are integration credentials.
    const seals = 'encryptCredentials' in access && Boolean(access.encryptCredentials);
    const opens = 'decryptCredentials' in access && Boolean(access.decryptCredentials);
    if (seals || opens) {
      this.addEnvironment(CIPHER_ENV.backend, 'kms' satisfies SecretCipherBackend);
      this.addEnvironment(INTEGRATIONS_KEY, resources.integrationsKey.keyArn);
      const action = seals ? 'kms:GenerateDataKey' : 'kms:Decrypt';
      this.addToRolePolicy(new PolicyStatement({ actions: [action], resources: [resources.integrationsKey.keyArn], conditions: { StringEquals: CREDENTIALS_PURPOSE } }));
      if (seals && opens) this.addToRolePolicy(new PolicyStatement({ actions: ['kms:Decrypt'], resources: [resources.integrationsKey.keyArn], conditions: { StringEquals: CREDENTIALS_PURPOSE } }));
    }

    if ('invokeToolProxy' in access && access.invokeToolProxy) {
      if (!resources.toolProxy) throw new Error('invokeToolProxy needs the tool proxy created first (Tasks creates it before the other consumers).');
      this.addEnvironment(TOOL_PROXY_NAME, resources.toolProxy.functionName);
      // The function's own ARN only, not grantInvoke's `<arn>:*` as well: the client invokes the
      // unqualified name, and no version or alias of the proxy is ever published.
      this.addToRolePolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [resources.toolProxy.functionArn] }));
    }

    // Only the domain: mail triggers get addresses at it; SES receiving is InboundMail's. Without
    // inbound mail, the switch that makes mail triggers answer 409 inbound_mail_unavailable.
    if ('inboundMail' in access && access.inboundMail) {
      if (!resources.inboundMail) throw new Error('inboundMail needs the stack to decide on inbound mail first (DataResources.inboundMail: the InboundMail domain, or off).');
      if (resources.inboundMail === 'off') this.addEnvironment(INBOUND_MAIL_SWITCH_ENV, 'off');
      else this.addEnvironment(INBOUND_MAIL_DOMAIN_ENV, resources.inboundMail.domain);
    }
  }
}

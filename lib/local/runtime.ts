// First: Powertools reads its settings when the handler modules below create their logger.
import '#lib/local/observability-env';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { authorizer } from '#functions/routes';
import { consumers, eventFanOut, eventTriggerConsumer, reachesEventTriggers, recurringJobs, scheduleTargets, toolProxy } from '#shared/config/topology';
import { LAMBDA_ENDPOINT_ENV, TOOL_PROXY_FUNCTION_ENV } from '#shared/adapters/lambda/tool-proxy-client';
import { startLambdaInvokeServer } from '#lib/local/lambda-invoke-server';
import { startInboundMailDelivery } from '#lib/local/inbound-mail-delivery';
import type { InboundSmtp } from '#lib/local/smtp-inbound';
import { INBOUND_MAIL_ENV } from '#shared/adapters/mail/inbound-store';
import { tmpdir } from 'node:os';
import { getIntegerFromEnv } from '#shared/config/env';
import { RESERVED_LOOPBACK_PORTS_ENV } from '#shared/config/loopback-ports';
import { StreamPoller } from '#lib/local/streams/stream-poller';
import { ScheduleRunner } from '#lib/local/schedule-runner';
import { RecurringJobRunner } from '#lib/local/recurring-job-runner';
import { everythingLostPolicy, sweepPolicyFromEnv, sweepStuckWork } from '#shared/services/stuck-work-sweeper';
import { redriveOpenDeliveries } from '#shared/services/open-delivery-redrive';
import { createApiGateway, STAGE } from '#lib/local/api-gateway';
import { setUpApiKeys } from '#lib/local/api-key-setup';
import { prepareLocalSignIn, type DevUser } from '#lib/local/oidc/local-sign-in';
import type { LocalUser } from '#lib/local/oidc/local-users';
import type { OidcRequestHandler } from '#lib/local/oidc/oidc-handler';
import { requestTimeoutMsFromEnv } from '#lib/local/gateway/request-limits';
import { stopOrphanedDynamoDbLocal } from '#lib/local/dynamodb-local';
import { startEngines, type Engines } from '#lib/local/engines';
import { provision, type EngineEndpoints } from '#lib/local/provision';
import { installInvokeStore } from '#lib/local/invoke-store';
import { installLambdaStreamingGlobal } from '#lib/local/lambda-streaming';
import { QueuePoller } from '#lib/local/queue-poller';

export interface RuntimeOptions {
  port: number;
  /** Where DynamoDB Local keeps its data; ignored when `inMemory`. */
  dataDir: string;
  inMemory: boolean;
  /**
   * `tenant:key` pairs to register (GATEHOUSE_API_KEYS); when empty, tenant `dev` gets a key. Keys
   * of earlier starts that these do not list are revoked (lib/local/api-key-setup.ts).
   */
  apiKeys: { tenantId: string; key: string }[];
  /**
   * People who can sign in to the embedded OpenID provider (GATEHOUSE_USERS); when empty, the dev
   * user `dev@gatehouse.local` of tenant `dev` (lib/local/oidc/local-sign-in.ts).
   */
  users?: LocalUser[];
  /** Names the table and queues, so that several runtimes can share engines in tests. */
  name?: string;
  workerConcurrency?: number;
  /** Tests that need tasks to stay queued turn the queue consumers off. */
  workers?: boolean;
  /**
   * The table stream's fan-out to webhooks (default on). The benchmark of the API alone turns it
   * off with the queue consumers: on AWS both run in functions of their own, while here they would
   * take the API's CPU, fanning out the events of the measurement before.
   */
  eventFanOut?: boolean;
  /** Interval of the recurring jobs (the stuck-work sweeper); default their rate, or GATEHOUSE_RECURRING_JOB_INTERVAL_MS. */
  recurringJobIntervalMs?: number;
  /**
   * Seconds the gateway reuses an authorizer answer per Authorization header; default
   * GATEHOUSE_AUTHORIZER_CACHE_SECONDS, else the deployed API's `authorizer.cacheTtlSeconds`.
   */
  authorizerCacheSeconds?: number;
  /** The inbound SMTP listener's port (mail triggers); default GATEHOUSE_SMTP_PORT or 2525, 0 for any free port. */
  smtpPort?: number;
  /** Engines already running (tests share one pair); otherwise the runtime starts its own. */
  engines?: EngineEndpoints;
  log?: (line: string) => void;
}

export interface Runtime {
  baseUrl: string;
  port: number;
  /** The dev key, when no keys were given. */
  devKey?: string;
  /** Where the dev key is kept between starts, unless nothing persists. */
  devKeyFile?: string;
  /** The embedded OpenID provider's issuer, `http://127.0.0.1:<port>/oidc`. */
  oidcIssuer: string;
  /** The dev user, when no users were given; its password only when it was just made. */
  devUser?: DevUser;
  /** Where mail triggers' mail is received: SMTP on 127.0.0.1, addresses at `inboundDomain`. */
  smtpPort: number;
  inboundDomain: string;
  stop(): Promise<void>;
}

/** The port of an engine's `http://host:port` endpoint. */
function portOf(endpoint: string): number {
  const url = new URL(endpoint);
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

/** Parses `GATEHOUSE_API_KEYS="tenant_a:key_a,tenant_b:key_b"`. */
export function parseApiKeys(value: string | undefined): { tenantId: string; key: string }[] {
  if (!value?.trim()) return [];
  return value.split(',').map((pair) => {
    const separator = pair.indexOf(':');
    const tenantId = pair.slice(0, separator).trim();
    const key = pair.slice(separator + 1).trim();
    if (separator < 1 || !key || !/^[A-Za-z0-9_-]{1,64}$/.test(tenantId)) throw new Error(`GATEHOUSE_API_KEYS entry '${pair}' is not 'tenant:key'.`);
    return { tenantId, key };
  });
}

/**
 * Runs the whole topology on this machine against real engines: DynamoDB Local and fauxqs. It
 * sets the standard AWS SDK environment so that the unchanged handlers find them, serves the
 * route table over HTTP, and plays Lambda's event sources for every queue consumer.
 */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const log = options.log ?? ((line: string) => console.log(line));
  const name = options.name ?? 'gatehouse';
  // Before any engine starts: a bad setting fails at once.
  const authorizerCacheSeconds = options.authorizerCacheSeconds ?? authorizerCacheSecondsFromEnv();
  const requestTimeoutMs = requestTimeoutMsFromEnv();
  let engines: Engines | undefined;
  let server: Server | undefined;
  const pollers: QueuePoller[] = [];
  let scheduleRunner: ScheduleRunner | undefined;
  let streamPoller: StreamPoller | undefined;
  let triggerPoller: StreamPoller | undefined;
  let invokeServer: { close(): Promise<void> } | undefined;
  let inboundSmtp: InboundSmtp | undefined;
  const recurringRunners: RecurringJobRunner[] = [];
  const stopEngines = async () => {
    await Promise.all(recurringRunners.map((runner) => runner.stop()));
    await invokeServer?.close();
    await inboundSmtp?.close();
    await Promise.all([streamPoller?.stop(), triggerPoller?.stop()]);
    await Promise.all(pollers.map((poller) => poller.stop()));
    await scheduleRunner?.stop();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    server?.closeAllConnections();
    await engines?.stop();
  };
  // Handlers are loaded later, on first use; streaming ones need the runtime's global then.
  installLambdaStreamingGlobal();
  installInvokeStore();
  try {
    let endpoints = options.engines;
    if (!endpoints) {
      if (!options.inMemory) await stopEngineOfCrashedRun(options.dataDir);
      engines = await startEngines({ dynamoDataDir: options.inMemory ? undefined : resolve(options.dataDir, 'dynamodb') });
      endpoints = engines;
    }
    const provisioned = await provision(name, endpoints, options.inMemory ? {} : { outboxDir: resolve(options.dataDir, 'outbox'), secretKey: persistentSecretKey(options.dataDir) });
    Object.assign(process.env, provisioned.environment);
    // Plays Lambda's Invoke API for the tool proxy, which run-task and the integration routes call by name.
    const toolProxyName = `${name}-${toolProxy.name}`;
    const invoke = await startLambdaInvokeServer({ [toolProxyName]: { handler: toolProxy.handler, timeoutSeconds: toolProxy.timeoutSeconds } });
    invokeServer = invoke;
    Object.assign(process.env, { [TOOL_PROXY_FUNCTION_ENV]: toolProxyName, [LAMBDA_ENDPOINT_ENV]: invoke.endpoint });
    if (!options.inMemory && !options.engines) {
      // Lets `npm run keys -- --local` find this runtime's table.
      mkdirSync(options.dataDir, { recursive: true });
      writeFileSync(join(options.dataDir, 'runtime.json'), JSON.stringify({ pid: process.pid, tableName: name, dynamodb: endpoints.dynamodb, dynamodbPid: engines?.dynamodbPid }, null, 2));
    }

    const persistDir = options.inMemory || options.engines ? undefined : options.dataDir;
    const { devKey, devKeyFile, revoked } = await setUpApiKeys(options.apiKeys, persistDir);
    const signIn = await prepareLocalSignIn(options.users ?? [], persistDir);
    if (revoked > 0) log(`Revoked ${revoked} API key(s) of an earlier start that this one does not list (GATEHOUSE_API_KEYS, or an earlier dev key).`);

    // The queues live in memory: every message of the last run is gone. One sweep of the
    // stuck-work sweeper with "everything in flight was lost" re-sends every waiting or running
    // task, unfinished detector run and unexecuted approved action (workers are idempotent).
    const recovered = await sweepStuckWork({ policy: everythingLostPolicy(sweepPolicyFromEnv()) }).catch((error: unknown) => {
      log(`Recovery of the last run's work is incomplete (the sweeper retries it): ${String(error)}`);
      return undefined;
    });
    if (recovered && recovered.tasksRedispatched + recovered.detectorRunsRedriven + recovered.toolCallsRedispatched > 0) {
      log(`Resumed ${recovered.tasksRedispatched} task(s), ${recovered.detectorRunsRedriven} detector run(s) and ${recovered.toolCallsRedispatched} approved action(s) left by the last run.`);
    }
    // Webhook deliveries the same way: each open one gets its next attempt queued again (on AWS
    // the queue is durable, so deliveries carry no "owed" index entry and this stays local).
    const redriven = await redriveOpenDeliveries().catch((error: unknown) => {
      log(`Re-sending the last run's webhook deliveries failed (POST /webhooks/{id}/recover sends failed ones): ${String(error)}`);
      return 0;
    });
    if (redriven > 0) log(`Re-sent ${redriven} webhook delivery attempt(s) left by the last run.`);
    for (const job of recurringJobs) {
      const runner = new RecurringJobRunner(job, options.recurringJobIntervalMs ?? getIntegerFromEnv('GATEHOUSE_RECURRING_JOB_INTERVAL_MS', job.rateMinutes * 60_000));
      runner.start();
      recurringRunners.push(runner);
    }

    scheduleRunner = new ScheduleRunner(scheduleTargets);
    scheduleRunner.start();

    // Plays the table stream's event-source mapping: inserted events fan out to webhooks.
    if (options.eventFanOut !== false) {
      streamPoller = new StreamPoller({
        endpoint: endpoints.dynamodb,
        tableName: name,
        handler: eventFanOut.handler,
        filter: (record) => record.eventName === eventFanOut.filter.eventName && record.dynamodb?.NewImage?.entity?.S === eventFanOut.filter.entity,
        batchSize: eventFanOut.batchSize,
        maxBatchingWindowMs: eventFanOut.maxBatchingWindowSeconds * 1000,
        timeoutSeconds: eventFanOut.timeoutSeconds,
        pollMs: 100,
        ...(options.inMemory || options.engines ? {} : { checkpointFile: join(options.dataDir, 'stream-checkpoint.json') }),
      });
      streamPoller.start();
      // Plays the event triggers' own filtered mapping of the same stream (topology.ts says why).
      triggerPoller = new StreamPoller({
        endpoint: endpoints.dynamodb,
        tableName: name,
        handler: eventTriggerConsumer.handler,
        filter: (record) => reachesEventTriggers(record as never),
        batchSize: eventTriggerConsumer.batchSize,
        maxBatchingWindowMs: eventTriggerConsumer.maxBatchingWindowSeconds * 1000,
        timeoutSeconds: eventTriggerConsumer.timeoutSeconds,
        pollMs: 100,
        ...(options.inMemory || options.engines ? {} : { checkpointFile: join(options.dataDir, 'event-trigger-checkpoint.json') }),
      });
      triggerPoller.start();
    }

    for (const consumer of options.workers === false ? [] : consumers) {
      const poller = new QueuePoller(consumer, consumer.queues.map((queue) => provisioned.queueUrls[queue]), consumer.localConcurrency ?? options.workerConcurrency ?? 4);
      poller.start();
      pollers.push(poller);
    }

    // Plays SES receiving for mail triggers: SMTP in, the message kept where the handler reads it.
    const inboundDir = options.inMemory ? join(tmpdir(), `gatehouse-inbound-${name}`) : resolve(options.dataDir, 'inbound-mail');
    process.env[INBOUND_MAIL_ENV.dir] = inboundDir;
    inboundSmtp = await startInboundMailDelivery({ port: options.smtpPort ?? getIntegerFromEnv('GATEHOUSE_SMTP_PORT', 2525), dir: inboundDir, log });

    const oidcMount: { handle?: OidcRequestHandler } = {};
    server = createApiGateway({ authorizerCacheSeconds, requestTimeoutMs, oidc: oidcMount });
    await new Promise<void>((done, fail) => {
      server!.once('error', fail);
      server!.listen(options.port, '127.0.0.1', () => done());
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    // The issuer names the port, known only now; the handlers read these per request.
    const oidc = signIn.start(`http://127.0.0.1:${port}`);
    oidcMount.handle = oidc.handle;
    Object.assign(process.env, { GATEHOUSE_OIDC_ISSUER: oidc.issuer, GATEHOUSE_OIDC_CLIENT_ID: oidc.clientId });
    // Loopback webhook and integration URLs are allowed locally, but never at our own engines' ports.
    process.env[RESERVED_LOOPBACK_PORTS_ENV] = [port, inboundSmtp.port, portOf(invoke.endpoint), portOf(endpoints.dynamodb), portOf(endpoints.sqs)].join(',');
    return { baseUrl: `http://127.0.0.1:${port}/${STAGE}`, port, devKey, devKeyFile, oidcIssuer: oidc.issuer, devUser: signIn.devUser, smtpPort: inboundSmtp.port, inboundDomain: inboundSmtp.domain, stop: stopEngines };
  } catch (error) {
    await stopEngines().catch(() => undefined);
    throw error;
  }
}

/** API Gateway's own bounds for an authorizer's result TTL: 0 (no cache) to one hour. */
const MAX_AUTHORIZER_CACHE_SECONDS = 3600;

/** GATEHOUSE_AUTHORIZER_CACHE_SECONDS, checked at start; unset, the TTL the stack deploys. */
export function authorizerCacheSecondsFromEnv(): number {
  const seconds = getIntegerFromEnv('GATEHOUSE_AUTHORIZER_CACHE_SECONDS', authorizer.cacheTtlSeconds);
  if (seconds < 0 || seconds > MAX_AUTHORIZER_CACHE_SECONDS) throw new Error(`Environment variable GATEHOUSE_AUTHORIZER_CACHE_SECONDS must be from 0 to ${MAX_AUTHORIZER_CACHE_SECONDS}, got '${seconds}'.`);
  return seconds;
}

export function defaultDataDir(): string {
  return join(process.cwd(), '.gatehouse');
}

/** A runtime killed with SIGKILL leaves its DynamoDB Local running on the data dir; stop it first. */
async function stopEngineOfCrashedRun(dataDir: string): Promise<void> {
  const file = join(dataDir, 'runtime.json');
  if (!existsSync(file)) return;
  try {
    const { dynamodbPid } = JSON.parse(readFileSync(file, 'utf8')) as { dynamodbPid?: number };
    if (dynamodbPid) await stopOrphanedDynamoDbLocal(dynamodbPid);
  } catch {
    // an unreadable file from an older run: nothing to stop
  }
}

/** The local key that encrypts webhook secrets, kept beside the data it protects. */
function persistentSecretKey(dataDir: string): string {
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

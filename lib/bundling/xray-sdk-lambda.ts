/**
 * Stands in for `aws-xray-sdk-core` inside function bundles (an esbuild alias, see ./aliases.ts):
 * the SDK's entry (`dist/lib/aws-xray.js` of 3.12.0) as it behaves under Lambda, built from the
 * SDK's own modules. The entry is CommonJS and requires every module at load, and Powertools
 * Tracer imports it whole; on Lambda most of it never runs:
 *
 * - sampling (`middleware/mw_utils` and `middleware/sampling/*`: the local and centralized
 *   samplers, rule and target pollers, the sampling API client): on Lambda, Lambda decides and the
 *   SDK's facade segment carries the decision; the SDK's Lambda mode only switches its centralized
 *   sampler off at load, and only the HTTP-server middlewares (Express, Restify) ever ask a
 *   sampler;
 * - the EC2, ECS and Elastic Beanstalk plugins, which `AWSXRay.config()` would add to segments the
 *   SDK opens itself, never to Lambda's;
 * - the AWS SDK v2 patcher, the promise patcher and the SQL data class (Gatehouse uses SDK v3
 *   through `captureAWSv3Client`, and neither Powertools nor Gatehouse patches promises or traces
 *   SQL).
 *
 * Those members throw when used, saying so. Everything Powertools Tracer calls on Lambda is the
 * SDK's own code: the context (cls-hooked), segments and subsegments, the segment emitter and
 * daemon config, the SDK v3 and HTTP(S) patchers, `capture*Func`, the logger. The Lambda facade
 * segment is set up as `env/aws_lambda.js` does it (copied below, since that module requires the
 * samplers); test/unit/bundling/xray-sdk-lambda.test.ts compares it with the SDK's own and pins the
 * upstream files it mirrors, so an SDK upgrade fails the tests until this file is checked again.
 */
// Relative paths into the package: the alias also rewrites `aws-xray-sdk-core/...` subpaths (to this
// file), and the package has no `exports` map that these deep paths would bypass.
import { name as sdkPackage, version as sdkVersion } from '../../node_modules/aws-xray-sdk-core/package.json';
import capture from '../../node_modules/aws-xray-sdk-core/dist/lib/capture.js';
import contextUtils from '../../node_modules/aws-xray-sdk-core/dist/lib/context_utils.js';
import daemonConfig from '../../node_modules/aws-xray-sdk-core/dist/lib/daemon_config.js';
import logging from '../../node_modules/aws-xray-sdk-core/dist/lib/logger.js';
import { captureAWSClient as captureAWSv3Client } from '../../node_modules/aws-xray-sdk-core/dist/lib/patchers/aws3_p.js';
import httpPatcher from '../../node_modules/aws-xray-sdk-core/dist/lib/patchers/http_p.js';
import segmentEmitter from '../../node_modules/aws-xray-sdk-core/dist/lib/segment_emitter.js';
import Aws from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/attributes/aws.js';
import Subsegment from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/attributes/subsegment.js';
import TraceID from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/attributes/trace_id.js';
import Segment from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/segment.js';
import segmentUtils from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/segment_utils.js';
import utils from '../../node_modules/aws-xray-sdk-core/dist/lib/utils.js';

const UNKNOWN = 'unknown';

/** A member of the SDK that function bundles leave out: calling it is a bundling bug, said loudly. */
function notBundled(member: string, why: string): (...args: unknown[]) => never {
  return () => {
    throw new Error(`aws-xray-sdk-core ${member} is not bundled into functions (lib/bundling/xray-sdk-lambda.ts): ${why}`);
  };
}

const PLUGINS_WHY = 'plugins add EC2, ECS or Elastic Beanstalk data to segments the SDK opens itself; on Lambda the segment is Lambda’s';
const SAMPLING_WHY = 'on Lambda, Lambda samples; only the SDK’s HTTP-server middlewares use a sampler';

/** A namespace of the SDK that function bundles leave out: reading any of its members throws. */
function absentNamespace(member: string, why: string): unknown {
  return new Proxy({}, { get: (_target, key) => (typeof key === 'symbol' ? undefined : notBundled(`${member}.${key}`, why)()) });
}

/** The trace header the facade segment last took its trace data from. */
let xAmznTraceIdPrev: string | null = null;

/** The facade segment of the SDK's Lambda mode: upstream `facadeSegment()` of env/aws_lambda.js. */
function facadeSegment(): Segment {
  const segment = new Segment('facade');
  const facade = segment as unknown as Record<string, unknown> & {
    trace_id: string;
    id: string;
    subsegments?: unknown;
    notTraced?: boolean;
    reset(): void;
  };
  const whitelistFcn = ['addNewSubsegment', 'addSubsegment', 'removeSubsegment', 'toString', 'addSubsegmentWithoutSampling', 'addNewSubsegmentWithoutSampling'];
  const silentFcn = ['incrementCounter', 'decrementCounter', 'isClosed', 'close', 'format', 'flush'];
  const xAmznTraceId = process.env._X_AMZN_TRACE_ID;
  // `for...in` as upstream: the prototype's methods are enumerable, and each becomes an own no-op.
  for (const key in facade) {
    if (typeof facade[key] === 'function' && !whitelistFcn.includes(key)) {
      facade[key] = silentFcn.includes(key)
        ? () => undefined
        : () => {
            logging.getLogger().warn(`Function "${key}" cannot be called on an AWS Lambda segment. Please use a subsegment to record data.`);
          };
    }
  }
  facade.trace_id = TraceID.Invalid().toString();
  facade.isClosed = () => true;
  facade.in_progress = false;
  facade.counter = 1;
  facade.notTraced = true;
  facade.facade = true;
  facade.reset = function reset(this: typeof facade) {
    this.trace_id = TraceID.Invalid().toString();
    this.id = '00000000';
    delete this.subsegments;
    this.notTraced = true;
  };
  facade.resolveLambdaTraceData = function resolveLambdaTraceData(this: typeof facade) {
    const invokeStore = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId(): string | undefined } } }).awslambda?.InvokeStore;
    const xAmznLambda = invokeStore?.getXRayTraceId() ?? process.env._X_AMZN_TRACE_ID;
    if (xAmznLambda) {
      // Resets the trace data whenever a new trace header is read, not to leak data between invocations.
      if (xAmznLambda !== xAmznTraceIdPrev) {
        this.reset();
        if (utils.LambdaUtils.populateTraceData(segment, xAmznLambda)) xAmznTraceIdPrev = xAmznLambda;
      }
    } else {
      this.reset();
      (contextUtils as typeof contextUtils & { contextMissingStrategy: { contextMissing(message: string): void } }).contextMissingStrategy.contextMissing(
        'Missing AWS Lambda trace data for X-Ray. Ensure Active Tracing is enabled and no subsegments are created outside the function handler.',
      );
    }
  };
  // Trace data during init is likely absent (still in the cold start); upstream tests it all the same.
  if (utils.LambdaUtils.validTraceData(xAmznTraceId) && utils.LambdaUtils.populateTraceData(segment, xAmznTraceId!)) xAmznTraceIdPrev = xAmznTraceId!;
  return segment;
}

/**
 * Upstream `init()` of env/aws_lambda.js, without `mwUtils.disableCentralizedSampling()`: the
 * centralized sampler it switches off is not bundled, so it has nothing to switch off.
 */
function initLambda(): void {
  contextUtils.enableManualMode = () => {
    logging.getLogger().warn('AWS Lambda does not support AWS X-Ray manual mode.');
  };
  segmentEmitter.disableReusableSocket();
  segmentUtils.setStreamingThreshold(0);
  logging.getLogger().info('Disabling centralized sampling in Lambda environment.');
  const namespace = contextUtils.getNamespace();
  namespace.enter(namespace.createContext());
  contextUtils.setSegment(facadeSegment());
}

/** `AWSXRay` with the members of upstream aws-xray.js, in its order. */
const AWSXRay = {
  plugins: absentNamespace('plugins', PLUGINS_WHY),
  config: notBundled('config (plugins)', PLUGINS_WHY),
  setAWSWhitelist: Aws.setAWSWhitelist,
  appendAWSWhitelist: Aws.appendAWSWhitelist,
  setStreamingThreshold: segmentUtils.setStreamingThreshold,
  setLogger: logging.setLogger,
  getLogger: logging.getLogger,
  setDaemonAddress: daemonConfig.setDaemonAddress,
  captureFunc: capture.captureFunc,
  captureAsyncFunc: capture.captureAsyncFunc,
  captureCallbackFunc: capture.captureCallbackFunc,
  captureAWS: notBundled('captureAWS (AWS SDK v2)', 'Gatehouse uses the AWS SDK v3: captureAWSv3Client'),
  captureAWSClient: notBundled('captureAWSClient (AWS SDK v2)', 'Gatehouse uses the AWS SDK v3: captureAWSv3Client'),
  captureAWSv3Client,
  captureHTTPs: httpPatcher.captureHTTPs,
  captureHTTPsGlobal: httpPatcher.captureHTTPsGlobal,
  capturePromise: Object.assign(notBundled('capturePromise', 'nothing patches promises'), { patchThirdPartyPromise: notBundled('capturePromise.patchThirdPartyPromise', 'nothing patches promises') }),
  utils,
  database: absentNamespace('database', 'nothing traces SQL'),
  middleware: absentNamespace('middleware', SAMPLING_WHY),
  getNamespace: contextUtils.getNamespace,
  resolveSegment: contextUtils.resolveSegment,
  resolveManualSegmentParams: contextUtils.resolveManualSegmentParams,
  getSegment: contextUtils.getSegment,
  setSegment: contextUtils.setSegment,
  isAutomaticMode: contextUtils.isAutomaticMode,
  enableAutomaticMode: contextUtils.enableAutomaticMode,
  // Read before initLambda() replaces it, as upstream's object literal does.
  enableManualMode: contextUtils.enableManualMode,
  setContextMissingStrategy: contextUtils.setContextMissingStrategy,
  Segment,
  Subsegment,
  SegmentUtils: segmentUtils,
};

segmentUtils.setSDKData({ sdk: 'X-Ray for Node.js', sdk_version: sdkVersion ?? UNKNOWN, package: sdkPackage ?? UNKNOWN });
segmentUtils.setServiceData({
  runtime: process.release?.name ?? UNKNOWN,
  runtime_version: process.version,
  version: process.env.npm_package_version || UNKNOWN,
  name: process.env.npm_package_name || UNKNOWN,
});
if (process.env.LAMBDA_TASK_ROOT) initLambda();

export default AWSXRay;

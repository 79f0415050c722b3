import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { SCAN_DETECTOR_QUEUE, VISIBILITY_TIMEOUT_FACTOR, scanDetectorWorker } from '#shared/config/topology';
import { synthGatehouse } from './synth';
import { actionsOf, consumerId, functionIdFor, getAttTarget, queueIdFor, roleStatements, type CfnResource } from './template-queries';

describe('scans on AWS', () => {
  let template: Template;

  beforeAll(() => {
    template = synthGatehouse();
  }, 120_000);

  it('queues detector runs with a dead-letter queue and a visibility timeout of six worker timeouts', () => {
    const queue = template.toJSON().Resources[queueIdFor(template, SCAN_DETECTOR_QUEUE.name)] as CfnResource;
    expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(VISIBILITY_TIMEOUT_FACTOR * scanDetectorWorker.timeoutSeconds);
    expect(queue.Properties.RedrivePolicy).toMatchObject({ maxReceiveCount: SCAN_DETECTOR_QUEUE.maxReceiveCount, deadLetterTargetArn: { 'Fn::GetAtt': [queueIdFor(template, `${SCAN_DETECTOR_QUEUE.name}-dlq`), 'Arn'] } });
  });

  it('sizes the detector worker for crawling and a browser, one detector run per invocation', () => {
    const id = consumerId(template, scanDetectorWorker);
    const worker = template.toJSON().Resources[id] as CfnResource;
    // x86_64: the architecture of the Chromium build the npm package carries (the one tests run).
    expect(worker.Properties).toMatchObject({ Timeout: scanDetectorWorker.timeoutSeconds, MemorySize: scanDetectorWorker.memoryMb, Runtime: 'nodejs24.x', Architectures: ['x86_64'], EphemeralStorage: { Size: 1024 } });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: id },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: { 'Fn::GetAtt': [queueIdFor(template, SCAN_DETECTOR_QUEUE.name), 'Arn'] },
    });
  });

  it('gives the detector worker, and only it, headless Chromium as a layer it finds through CHROMIUM_BIN_DIR', () => {
    // The dashboard's deployment brings CDK's AWS CLI layers; ours is the one with a description.
    const layers = Object.fromEntries(Object.entries(template.findResources('AWS::Lambda::LayerVersion') as Record<string, CfnResource>).filter(([, layer]) => /Chromium/.test(layer.Properties.Description ?? '')));
    const [layerId, ...others] = Object.keys(layers);
    expect(others).toEqual([]);
    expect(layers[layerId].Properties).toMatchObject({ CompatibleArchitectures: ['x86_64'], CompatibleRuntimes: ['nodejs24.x'], Description: expect.stringMatching(/^Headless Chromium from @sparticuz\/chromium \d+\.\d+\.\d+ \(x86_64\)$/) });
    const id = consumerId(template, scanDetectorWorker);
    const functions = template.findResources('AWS::Lambda::Function') as Record<string, CfnResource>;
    const withLayer = Object.entries(functions).filter(([, fn]) => JSON.stringify(fn.Properties.Layers ?? []).includes(layerId)).map(([fnId]) => fnId);
    expect(withLayer).toEqual([id]);
    expect(functions[id].Properties.Environment.Variables.CHROMIUM_BIN_DIR).toBe('/opt/chromium');
  });

  it('keeps exports in a private, encrypted, TLS-only bucket whose objects expire', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 1, Status: 'Enabled' })] },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', { PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) } });
  });

  it('lets only the export route write and read exports, and only create-scan queue detector runs', () => {
    const exportRoute = routes.find((route) => route.path === '/scans/{scan_id}/export')!;
    const exportActions = actionsOf(roleStatements(template, functionIdFor(template, exportRoute)));
    expect(exportActions).toEqual(expect.arrayContaining(['s3:PutObject', 's3:GetObject']));
    expect(template.toJSON().Resources[functionIdFor(template, exportRoute)].Properties.Environment.Variables.EXPORT_BUCKET).toBeDefined();
    const scanQueue = queueIdFor(template, SCAN_DETECTOR_QUEUE.name);
    for (const route of routes) {
      const sends = roleStatements(template, functionIdFor(template, route)).filter((statement) => actionsOf([statement]).includes('sqs:SendMessage'));
      const toScanQueue = sends.some((statement) => [statement.Resource].flat().map(getAttTarget).includes(scanQueue));
      expect(toScanQueue, `${route.method} ${route.path}`).toBe(route.handler === 'functions/scans/create-scan.ts');
      const s3 = actionsOf(roleStatements(template, functionIdFor(template, route))).filter((action) => action.startsWith('s3:'));
      if (route !== exportRoute) expect(s3, `${route.method} ${route.path}`).toEqual([]);
    }
  });

  it('passes binary exports through the REST API', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['*/*'] });
  });
});

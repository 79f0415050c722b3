import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_DIST_DIR, dashboardIsStale } from '#lib/bundling/dashboard-build';
import { builtDashboardSource, SPA_FALLBACK_CODE } from '#lib/constructs/dashboard';
import { synthGatehouse, synthGatehouseAssemblyDir } from './synth';
import { deployedDashboardConfig, getAttTarget, idAtPath, type CfnResource } from './template-queries';

/** The managed CloudFront policies the behaviors use, by id (documented by AWS, stable). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

/** Runs the SPA fallback function's code as CloudFront would, on a request for `uri`. */
function rewrite(uri: string): string {
  const handler = new Function(`${SPA_FALLBACK_CODE}; return handler;`)() as (event: { request: { uri: string } }) => { uri: string };
  return handler({ request: { uri } }).uri;
}

describe('dashboard on AWS', () => {
  let template: Template;
  let distribution: Record<string, any>;
  let bucketId: string;
  let distributionId: string;
  const behavior = (pattern: string) => (distribution.CacheBehaviors as Record<string, any>[]).find(({ PathPattern }) => PathPattern === pattern)!;
  const originOf = (targetId: string) => (distribution.Origins as Record<string, any>[]).find(({ Id }) => Id === targetId)!;

  beforeAll(() => {
    template = synthGatehouse();
    bucketId = idAtPath(template, 'AWS::S3::Bucket', 'Gatehouse/Dashboard/Site/Resource');
    distributionId = idAtPath(template, 'AWS::CloudFront::Distribution', 'Gatehouse/Dashboard/Distribution/Resource');
    distribution = (template.findResources('AWS::CloudFront::Distribution')[distributionId] as CfnResource).Properties.DistributionConfig;
  }, 120_000);

  describe('site bucket', () => {
    it('is private, encrypted, owner-enforced and no website', () => {
      const bucket = template.findResources('AWS::S3::Bucket')[bucketId] as CfnResource;

      expect(bucket.Properties).toMatchObject({
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      });
      expect(bucket.Properties.WebsiteConfiguration).toBeUndefined();
    });

    it('lets only this distribution read objects (origin access control), and refuses plain HTTP', () => {
      const policies = (Object.values(template.findResources('AWS::S3::BucketPolicy')) as CfnResource[]).filter(({ Properties }) => Properties.Bucket.Ref === bucketId);
      expect(policies).toHaveLength(1);
      const statements = policies[0].Properties.PolicyDocument.Statement as Record<string, any>[];

      expect(statements.filter(({ Effect }) => Effect === 'Allow')).toEqual([
        {
          Action: 's3:GetObject',
          Effect: 'Allow',
          Principal: { Service: 'cloudfront.amazonaws.com' },
          Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] },
          Condition: { StringEquals: { 'AWS:SourceArn': { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudfront::', { Ref: 'AWS::AccountId' }, ':distribution/', { Ref: distributionId }]] } } },
        },
      ]);
      expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
      const site = originOf(distribution.DefaultCacheBehavior.TargetOriginId);
      expect(site).toMatchObject({ DomainName: { 'Fn::GetAtt': [bucketId, 'RegionalDomainName'] }, S3OriginConfig: { OriginAccessIdentity: '' } });
      template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', { OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' } });
      expect(getAttTarget(site.OriginAccessControlId)).toBe(Object.keys(template.findResources('AWS::CloudFront::OriginAccessControl'))[0]);
    });
  });

  describe('distribution', () => {
    it('serves the site over HTTPS (redirecting HTTP), index.html at the root, cached, with the SPA fallback on viewer requests', () => {
      const functionId = idAtPath(template, 'AWS::CloudFront::Function', 'Gatehouse/Dashboard/SpaFallback/Resource');

      expect(distribution).toMatchObject({ DefaultRootObject: 'index.html', Enabled: true });
      expect(distribution.DefaultCacheBehavior).toMatchObject({
        ViewerProtocolPolicy: 'redirect-to-https',
        AllowedMethods: ['GET', 'HEAD'],
        CachePolicyId: CACHING_OPTIMIZED,
        FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } }],
      });
      expect(distribution.CustomErrorResponses).toBeUndefined();
    });

    it('rewrites app routes without a file extension to /index.html and leaves files alone', () => {
      expect(rewrite('/')).toBe('/index.html');
      expect(rewrite('/tasks/tsk_01JABC')).toBe('/index.html');
      expect(rewrite('/callback')).toBe('/index.html');
      expect(rewrite('/config.json')).toBe('/config.json');
      expect(rewrite('/assets/index-3f2a.js')).toBe('/assets/index-3f2a.js');
      template.hasResourceProperties('AWS::CloudFront::Function', { FunctionCode: SPA_FALLBACK_CODE, FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }) });
    });

    it('sends /v1/* to the REST API on its execute-api domain (no origin path: the stage is v1), uncached, every viewer header but Host', () => {
      const api = behavior('/v1/*');
      const origin = originOf(api.TargetOriginId);
      const restApiId = Object.keys(template.findResources('AWS::ApiGateway::RestApi'))[0];

      expect(api).toMatchObject({ ViewerProtocolPolicy: 'https-only', CachePolicyId: CACHING_DISABLED, OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER });
      expect(api.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS']));
      expect(api.FunctionAssociations).toBeUndefined();
      expect(origin).toMatchObject({
        DomainName: { 'Fn::Join': ['', [{ Ref: restApiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] },
        CustomOriginConfig: { OriginProtocolPolicy: 'https-only' },
      });
      expect(origin.OriginPath).toBeUndefined();
    });

    it('sends the event stream through the /v1/* behavior like every route, whose origin waits 60 s between two chunks', () => {
      const patterns = (distribution.CacheBehaviors as { PathPattern: string }[]).map(({ PathPattern }) => PathPattern);
      const origin = originOf(behavior('/v1/*').TargetOriginId);

      expect(patterns.filter((pattern) => pattern.startsWith('/v1/'))).toEqual(['/v1/*']);
      // Longer than the stream's longest silence (a heartbeat at least every 30 s, live-events.ts).
      expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginReadTimeout: 60 });
      expect((distribution.Origins as unknown[]).length).toBe(2);
    });

    it('adds security headers to every answer: HSTS, a CSP of self plus sign-in, no framing, nosniff, referrer policy', () => {
      const policyId = idAtPath(template, 'AWS::CloudFront::ResponseHeadersPolicy', 'Gatehouse/Dashboard/SecurityHeaders/Resource');
      const config = (template.findResources('AWS::CloudFront::ResponseHeadersPolicy')[policyId] as CfnResource).Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
      const [, parts] = config.ContentSecurityPolicy.ContentSecurityPolicy['Fn::Join'] as [string, unknown[]];
      const csp = parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('');
      const directives = Object.fromEntries(csp.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]));
      const domainId = idAtPath(template, 'AWS::Cognito::UserPoolDomain', 'Gatehouse/SignIn/UserPool/Domain/Resource');
      const signIn = `https://${JSON.stringify({ Ref: domainId })}.auth.${JSON.stringify({ Ref: 'AWS::Region' })}.amazoncognito.com`;

      for (const { ResponseHeadersPolicyId } of [distribution.DefaultCacheBehavior, ...distribution.CacheBehaviors]) expect(ResponseHeadersPolicyId).toEqual({ Ref: policyId });
      expect(config).toMatchObject({
        StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true },
        FrameOptions: { FrameOption: 'DENY' },
        ContentTypeOptions: { Override: true },
        ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin' },
      });
      expect(directives['default-src']).toEqual(["'self'"]);
      expect(directives['script-src']).toEqual(["'self'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['connect-src']).toEqual(["'self'", `https://cognito-idp.${JSON.stringify({ Ref: 'AWS::Region' })}.${JSON.stringify({ Ref: 'AWS::URLSuffix' })}`, signIn]);
      expect(directives['form-action']).toEqual(["'self'", signIn]);
    });
  });

  describe('site files', () => {
    const deployments = () => Object.values(template.findResources('Custom::CDKBucketDeployment')) as CfnResource[];

    it('deploys the built files into the bucket without pruning: hashed assets cached for a year, the rest revalidated', () => {
      const byInclude = (include: string[] | undefined) => deployments().find(({ Properties }) => JSON.stringify(Properties.Include) === JSON.stringify(include))!.Properties;

      expect(deployments()).toHaveLength(2);
      for (const { Properties } of deployments()) expect(Properties).toMatchObject({ DestinationBucketName: { Ref: bucketId }, Prune: false });
      expect(byInclude(['assets/*'])).toMatchObject({ Exclude: ['*'], SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' } });
      expect(byInclude(undefined)).toMatchObject({ Exclude: ['assets/*'], SystemMetadata: { 'cache-control': 'no-cache' } });
    });

    it('writes config.json at deploy time: the API on the same origin, the pool as issuer, the app client, and the sign-out URL', () => {
      const entry = deployments().find(({ Properties }) => Properties.SourceMarkers?.length === 2)!.Properties;
      const config = deployedDashboardConfig(template, synthGatehouseAssemblyDir());
      const ref = (id: string) => JSON.stringify({ Ref: id }).replaceAll('"', "'");
      const getAtt = (id: string, attribute: string) => JSON.stringify({ 'Fn::GetAtt': [id, attribute] }).replaceAll('"', "'");
      const cloudFront = getAtt(distributionId, 'DomainName');
      const clientId = ref(idAtPath(template, 'AWS::Cognito::UserPoolClient', 'Gatehouse/SignIn/DashboardClient'));
      const domain = ref(idAtPath(template, 'AWS::Cognito::UserPoolDomain', 'Gatehouse/SignIn/UserPool/Domain/Resource'));

      expect(entry.SourceMarkersConfig[1]).toEqual({ jsonEscape: true });
      expect(config).toEqual({
        apiBaseUrl: `https://${cloudFront}/v1`,
        // An environment-agnostic synth has inbound mail (inbound-mail-option.test.ts has the others).
        inboundMail: true,
        oidc: {
          issuer: getAtt(idAtPath(template, 'AWS::Cognito::UserPool', 'Gatehouse/SignIn/UserPool/Resource'), 'ProviderURL'),
          clientId,
          scope: 'openid email profile',
          logoutUrl: `https://${domain}.auth.${ref('AWS::Region')}.amazoncognito.com/logout?client_id=${clientId}&logout_uri=https://${cloudFront}/`,
        },
      });
    });
  });

  it('synthesizes the built web app, building it first when it is stale', () => {
    expect(builtDashboardSource()).toBeDefined();
    expect(dashboardIsStale()).toBe(false);
    expect(existsSync(join(DASHBOARD_DIST_DIR, 'index.html'))).toBe(true);
  });

  it('outputs the dashboard URL', () => {
    template.hasOutput('DashboardUrl', { Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, '/']] } });
  });
});

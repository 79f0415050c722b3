import { Aws, CfnOutput, Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { API_VERSION } from '#functions/routes';
import { DASHBOARD_SCOPES, type SignIn } from '#lib/constructs/sign-in';
import { dashboardHeaders } from '#lib/constructs/dashboard-headers';
import { DashboardDomain } from '#lib/constructs/dashboard-domain';
import { ensureDashboardBuiltSync } from '#lib/bundling/dashboard-build';
import { acknowledgeDashboardFindings, acknowledgeSiteDeployment } from '#lib/nag';

/** The built dashboard as a deployment source, built first when missing or stale (Vite, seconds). */
export function builtDashboardSource(): ISource {
  return Source.asset(ensureDashboardBuiltSync());
}

/**
 * Rewrites a path without a file extension (`/tasks/tsk_01...`) to `/index.html`, so the web app's
 * router answers it. A function on the site's behavior only: the API's answers, 404s included,
 * pass through untouched, which CloudFront's error responses would not do.
 */
export const SPA_FALLBACK_CODE = `function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

export interface DashboardProps {
  /** The built web app (`builtDashboardSource()`; tests pass a stand-in). */
  site: ISource;
  api: RestApi;
  signIn: SignIn;
  /** Whether the stack receives mail for mail triggers: config.json's `inboundMail`, which the trigger form reads. */
  inboundMail: boolean;
}

/**
 * The dashboard on AWS, on one origin with the API: a private bucket behind CloudFront (origin
 * access control), `/v1/*` to the REST API (the event stream included), uncached with every
 * viewer header but Host. The site's files are deployed with a `config.json`
 * written at deploy time (the API base URL and the sign-in settings).
 */
export class Dashboard extends Construct {
  public readonly bucket: Bucket;
  public readonly distribution: Distribution;
  /** `https://<custom domain>` when context names one, else `https://<distribution domain>`; without a trailing slash. */
  public readonly origin: string;

  public constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    const { site, api, signIn } = props;

    this.bucket = new Bucket(this, 'Site', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Only built files live here; the next deploy writes them again.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: false,
    });

    const spaFallback = new CloudFrontFunction(this, 'SpaFallback', { code: FunctionCode.fromInline(SPA_FALLBACK_CODE), runtime: FunctionRuntime.JS_2_0, comment: 'Serves index.html for app routes' });
    const headers = dashboardHeaders(this, signIn);
    const passThrough: Omit<BehaviorOptions, 'origin'> = {
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: headers,
    };
    const additionalBehaviors: Record<string, BehaviorOptions> = {
      [`/${API_VERSION}/*`]: {
        ...passThrough,
        // The stage is the version, so the viewer's path (`/v1/tasks`) is the API's path as it is.
        // The read timeout is the longest silence CloudFront allows between two chunks of an
        // answer: the event stream writes at least every 30 s (a heartbeat), and every other route
        // answers within API Gateway's 29 s.
        origin: new HttpOrigin(`${api.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY, readTimeout: Duration.seconds(60) }),
      },
    };

    // The operator's own domain and certificate when CDK context names them (DashboardDomain).
    const domain = DashboardDomain.fromContext(this, 'Domain');
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Gatehouse dashboard and API',
      ...(domain ? { domainNames: [domain.domainName], certificate: domain.certificate } : {}),
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors,
    });
    this.origin = domain?.origin ?? `https://${this.distribution.distributionDomainName}`;
    acknowledgeDashboardFindings(this.distribution, this.bucket);

    this.deploySite(site, signIn, props.inboundMail);
    signIn.allowDashboard(this.origin);

    new CfnOutput(this, 'Url', { value: `${this.origin}/`, description: 'The dashboard (and the API under /v1 on the same origin)' }).overrideLogicalId('DashboardUrl');
    if (domain) {
      new CfnOutput(this, 'DomainTarget', { value: this.distribution.distributionDomainName, description: `Point ${domain.domainName} here: a CNAME record, or a Route 53 alias record` }).overrideLogicalId('DashboardDomainTarget');
    }
  }

  /**
   * Two deployments into the bucket, neither pruning, so a browser holding the previous
   * index.html still finds the assets it names: Vite's content-hashed `assets/` cached for a year;
   * everything else (index.html, config.json) revalidated on every request.
   */
  private deploySite(site: ISource, signIn: SignIn, inboundMail: boolean): void {
    const config = Source.jsonData('config.json', {
      apiBaseUrl: `${this.origin}/${API_VERSION}`,
      inboundMail,
      oidc: {
        issuer: signIn.issuer,
        clientId: signIn.client.ref,
        scope: DASHBOARD_SCOPES.join(' '),
        logoutUrl: `${signIn.signInUrl}/logout?client_id=${signIn.client.ref}&logout_uri=${this.origin}/`,
      },
    });
    // A role and log group of our own: CDK's default role carries AWSLambdaBasicExecutionRole.
    const role = new Role(this, 'DeployRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: "Copies the dashboard's files into its bucket at deploy time" });
    const logGroup = new LogGroup(this, 'DeployLogs', { retention: RetentionDays.ONE_MONTH });
    logGroup.grantWrite(role);
    const common = { destinationBucket: this.bucket, prune: false, role, logGroup, memoryLimit: 512 };
    new BucketDeployment(this, 'Assets', { ...common, sources: [site], exclude: ['*'], include: ['assets/*'], cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')] });
    new BucketDeployment(this, 'Entry', { ...common, sources: [site, config], exclude: ['assets/*'], cacheControl: [CacheControl.noCache()] });
    acknowledgeSiteDeployment(role, this.bucket);
  }
}

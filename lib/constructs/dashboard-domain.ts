import { Certificate, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Construct } from 'constructs';

/** CDK context putting the dashboard on the operator's own domain, with its ACM certificate. */
export const DASHBOARD_DOMAIN_CONTEXT = { domainName: 'gatehouse:dashboardDomain', certificateArn: 'gatehouse:dashboardCertificateArn' } as const;

/** CloudFront takes certificates from ACM in us-east-1 only, whatever region the stack is in. */
const US_EAST_1_CERTIFICATE = /^arn:aws(-[a-z]+)*:acm:us-east-1:\d{12}:certificate\/[A-Za-z0-9-]+$/;
/** One host name (no wildcard, no scheme, no path): the dashboard's origin is exactly this host. */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

function contextString(scope: Construct, key: string): string | undefined {
  const value: unknown = scope.node.tryGetContext(key);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`${key} must be a string, not ${JSON.stringify(value)}.`);
  return value.trim();
}

/**
 * The dashboard's custom domain: `-c gatehouse:dashboardDomain=gatehouse.example.com` with
 * `-c gatehouse:dashboardCertificateArn=arn:aws:acm:us-east-1:...`, given together. The
 * distribution answers on the domain with the certificate, and the domain becomes the dashboard's
 * origin: config.json's API base URL, the sign-in callback and sign-out URLs. The DNS record
 * pointing the domain at the distribution stays with the operator (the DashboardDomainTarget output).
 * Synth refuses one without the other, a name that is not one host, and a certificate outside us-east-1.
 */
export class DashboardDomain extends Construct {
  public readonly domainName: string;
  public readonly certificate: ICertificate;

  /** The domain the context names, or undefined when it names none. */
  public static fromContext(scope: Construct, id: string): DashboardDomain | undefined {
    const { domainName: domainKey, certificateArn: arnKey } = DASHBOARD_DOMAIN_CONTEXT;
    const domainName = contextString(scope, domainKey)?.toLowerCase();
    const certificateArn = contextString(scope, arnKey);
    if (!domainName && !certificateArn) return undefined;
    if (!domainName) throw new Error(`${arnKey} is given without ${domainKey}: give both (-c ${domainKey}=gatehouse.example.com -c ${arnKey}=<ARN>), or neither.`);
    if (!certificateArn) throw new Error(`${domainKey} is given without ${arnKey}: CloudFront needs an ACM certificate in us-east-1 covering ${domainName} (docs/deploying.md).`);
    if (!HOST_NAME.test(domainName)) throw new Error(`${domainKey} must be one host name such as gatehouse.example.com (no scheme, path or wildcard), not '${domainName}'.`);
    if (!US_EAST_1_CERTIFICATE.test(certificateArn)) {
      throw new Error(`${arnKey} must be the ARN of an ACM certificate in us-east-1 (arn:aws:acm:us-east-1:<account>:certificate/<id>), where CloudFront takes its certificates from, not '${certificateArn}'.`);
    }
    return new DashboardDomain(scope, id, domainName, certificateArn);
  }

  private constructor(scope: Construct, id: string, domainName: string, certificateArn: string) {
    super(scope, id);
    this.domainName = domainName;
    this.certificate = Certificate.fromCertificateArn(this, 'Certificate', certificateArn);
  }

  /** `https://<domain>`: the dashboard's origin, without a trailing slash. */
  public get origin(): string {
    return `https://${this.domainName}`;
  }
}

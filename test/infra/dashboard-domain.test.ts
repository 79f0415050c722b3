import { App, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_DOMAIN_CONTEXT, DashboardDomain } from '#lib/constructs/dashboard-domain';
import { nagChecks } from '#lib/nag';
import { GatehouseStack } from '#lib/stack';
import { synthGatehouse, synthGatehouseAssemblyDir, synthGatehouseStack, TEST_DASHBOARD_SITE } from './synth';
import { deployedDashboardConfig, idAtPath, type CfnResource } from './template-queries';

const DOMAIN = 'gatehouse.example.com';
const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789';
const CONTEXT = { [DASHBOARD_DOMAIN_CONTEXT.domainName]: DOMAIN, [DASHBOARD_DOMAIN_CONTEXT.certificateArn]: CERTIFICATE_ARN };

/** DashboardDomain.fromContext in an empty stack with `context`, as synth would read it. */
function domainFrom(context: Record<string, string>): DashboardDomain | undefined {
  return DashboardDomain.fromContext(new Stack(new App({ context }), 'Probe'), 'Domain');
}

describe('custom dashboard domain (gatehouse:dashboardDomain, gatehouse:dashboardCertificateArn)', () => {
  describe('refused at synth', () => {
    it('refuses the domain without its certificate, and the certificate without its domain', () => {
      expect(() => domainFrom({ [DASHBOARD_DOMAIN_CONTEXT.domainName]: DOMAIN })).toThrow('gatehouse:dashboardDomain is given without gatehouse:dashboardCertificateArn');
      expect(() => domainFrom({ [DASHBOARD_DOMAIN_CONTEXT.certificateArn]: CERTIFICATE_ARN })).toThrow('gatehouse:dashboardCertificateArn is given without gatehouse:dashboardDomain');
    });

    it('refuses a certificate outside us-east-1, or an ARN that is not an ACM certificate', () => {
      for (const arn of ['arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789', 'arn:aws:iam::123456789012:server-certificate/gatehouse', 'gatehouse.example.com']) {
        expect(() => domainFrom({ ...CONTEXT, [DASHBOARD_DOMAIN_CONTEXT.certificateArn]: arn }), arn).toThrow(/must be the ARN of an ACM certificate in us-east-1/);
      }
    });

    it('refuses a domain that is not one host name', () => {
      for (const name of ['https://gatehouse.example.com', '*.example.com', 'gatehouse.example.com/app', 'localhost']) {
        expect(() => domainFrom({ ...CONTEXT, [DASHBOARD_DOMAIN_CONTEXT.domainName]: name }), name).toThrow(/must be one host name/);
      }
    });

    it('stops the whole stack at synth, not at deploy', () => {
      const app = new App({ context: { 'aws:cdk:bundling-stacks': [], [DASHBOARD_DOMAIN_CONTEXT.domainName]: DOMAIN } });

      expect(() => new GatehouseStack(app, 'Gatehouse', { dashboardSite: TEST_DASHBOARD_SITE })).toThrow(/gatehouse:dashboardDomain is given without/);
    }, 120_000);

    it('takes neither as no custom domain, and a domain in capitals in lowercase (browsers send origins so)', () => {
      expect(domainFrom({})).toBeUndefined();
      expect(domainFrom({ ...CONTEXT, [DASHBOARD_DOMAIN_CONTEXT.domainName]: 'Gatehouse.Example.COM' })?.origin).toBe('https://gatehouse.example.com');
      expect(domainFrom({ ...CONTEXT, [DASHBOARD_DOMAIN_CONTEXT.certificateArn]: CERTIFICATE_ARN.replace('arn:aws:', 'arn:aws-cn:') })).toBeDefined();
    });
  });

  describe('on the stack', () => {
    let template: Template;
    let distributionId: string;

    beforeAll(() => {
      template = synthGatehouse({ context: CONTEXT });
      distributionId = idAtPath(template, 'AWS::CloudFront::Distribution', 'Gatehouse/Dashboard/Distribution/Resource');
    }, 120_000);

    it('puts the alias and the us-east-1 certificate on the distribution (SNI, TLS 1.2 at least)', () => {
      const config = (template.findResources('AWS::CloudFront::Distribution')[distributionId] as CfnResource).Properties.DistributionConfig;

      expect(config.Aliases).toEqual([DOMAIN]);
      expect(config.ViewerCertificate).toEqual({ AcmCertificateArn: CERTIFICATE_ARN, SslSupportMethod: 'sni-only', MinimumProtocolVersion: 'TLSv1.2_2021' });
    });

    it('signs people in and out on the custom domain: the app client\'s callback and sign-out URLs', () => {
      const [resource] = Object.values(template.findResources('Custom::AWS')) as CfnResource[];
      const [, parts] = resource.Properties.Create['Fn::Join'] as [string, unknown[]];
      const call = parts.filter((part): part is string => typeof part === 'string').join('');

      expect(call).toContain(`"CallbackURLs":["https://${DOMAIN}/callback"]`);
      expect(call).toContain(`"LogoutURLs":["https://${DOMAIN}/"]`);
      // The OAuth settings no longer wait for the distribution: nothing in the call refers to it.
      expect(JSON.stringify(parts)).not.toContain(distributionId);
    });

    it("writes the custom domain into config.json (the API's base URL, the sign-out return) and the DashboardUrl output", () => {
      const config = deployedDashboardConfig(template, synthGatehouseAssemblyDir({ context: CONTEXT }));

      expect(config.apiBaseUrl).toBe(`https://${DOMAIN}/v1`);
      expect(config.oidc.logoutUrl).toMatch(new RegExp(`&logout_uri=https://${DOMAIN.replaceAll('.', '\\.')}/$`));
      template.hasOutput('DashboardUrl', { Value: `https://${DOMAIN}/` });
    });

    it('passes cdk-nag AwsSolutions with the domain on, as `cdk deploy -c ...` checks it', () => {
      const report = nagChecks().validateScope(synthGatehouseStack({ context: CONTEXT }));

      expect(report.violations.flatMap(({ ruleName, violatingResources }) => violatingResources.map(({ constructPath }) => `${ruleName} at ${constructPath}`))).toEqual([]);
    }, 120_000);

    it('outputs where the DNS record points: the distribution\'s own domain', () => {
      template.hasOutput('DashboardDomainTarget', { Value: { 'Fn::GetAtt': [distributionId, 'DomainName'] } });
      expect(synthGatehouse().findOutputs('DashboardDomainTarget')).toEqual({});
    });
  });
});

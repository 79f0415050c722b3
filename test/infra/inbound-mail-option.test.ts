import { App, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { INBOUND_MAIL_DOMAIN_ENV, INBOUND_MAIL_SWITCH_ENV } from '#shared/config/inbound-mail';
import { SES_RECEIVING_REGIONS } from '#shared/config/ses-receiving';
import { INBOUND_MAIL_CONTEXT, inboundMailEnabled } from '#lib/inbound-mail-option';
import { GatehouseStack } from '#lib/stack';
import { synthGatehouse, synthGatehouseAssemblyDir, TEST_DASHBOARD_SITE, type SynthOptions } from './synth';
import { deployedDashboardConfig, functionIdFor, type CfnResource } from './template-queries';

const SES_TYPES = ['AWS::SES::ReceiptRuleSet', 'AWS::SES::ReceiptRule'];
const MAIL_TRIGGER_ROUTES = routes.filter((route) => 'inboundMail' in route.access && route.access.inboundMail);

/** The decision alone, on a bare stack in `region` (undefined: environment-agnostic). */
function decide(region: string | undefined, setting?: string): boolean {
  const app = new App({ context: setting === undefined ? {} : { [INBOUND_MAIL_CONTEXT]: setting } });
  return inboundMailEnabled(new Stack(app, 'Probe', region ? { env: { account: '123456789012', region } } : {}));
}

/** config.json as the dashboard's deployment writes it. */
function dashboardConfig(template: Template, options: SynthOptions): Record<string, unknown> {
  return deployedDashboardConfig(template, synthGatehouseAssemblyDir(options));
}

function environmentOf(template: Template, id: string): Record<string, unknown> {
  return (template.findResources('AWS::Lambda::Function')[id] as CfnResource).Properties.Environment.Variables;
}

describe('the inbound mail option (gatehouse:inboundMail)', () => {
  it('is on by default where SES receives mail and in an environment-agnostic synth, off elsewhere; off when asked', () => {
    expect(decide('eu-west-1')).toBe(true);
    expect(decide('us-east-1', 'auto')).toBe(true);
    expect(decide(undefined)).toBe(true);
    expect(decide('eu-central-2')).toBe(false);
    expect(decide('me-central-1', 'auto')).toBe(false);
    expect(decide('eu-west-1', 'off')).toBe(false);
    expect(decide('eu-west-1', 'on')).toBe(true);
    expect(decide(undefined, 'on')).toBe(true);
  });

  it('refuses on at synth in a region without SES receiving, saying why and what to do, and refuses an unknown value', () => {
    const withoutReceiving = 'eu-central-2';
    expect(SES_RECEIVING_REGIONS.has(withoutReceiving)).toBe(false);

    expect(() => new GatehouseStack(new App({ context: { [INBOUND_MAIL_CONTEXT]: 'on', 'aws:cdk:bundling-stacks': [] } }), 'Gatehouse', { env: { account: '123456789012', region: withoutReceiving }, dashboardSite: TEST_DASHBOARD_SITE })).toThrow(
      /gatehouse:inboundMail is on, but Amazon SES does not receive mail in eu-central-2.*-c gatehouse:inboundMail=auto/,
    );
    expect(() => decide('eu-west-1', 'yes')).toThrow(/takes auto \(the default\), on or off/);
  }, 120_000);

  describe('where it is on (environment-agnostic synth)', () => {
    const options: SynthOptions = {};
    let template: Template;

    beforeAll(() => {
      template = synthGatehouse(options);
    }, 300_000);

    it('creates SES receiving, gives mail triggers the domain, and tells the dashboard', () => {

      for (const type of SES_TYPES) expect(Object.keys(template.findResources(type)), type).toHaveLength(1);
      for (const route of MAIL_TRIGGER_ROUTES) {
        const environment = environmentOf(template, functionIdFor(template, route));
        expect(environment[INBOUND_MAIL_DOMAIN_ENV], route.path).toEqual({ Ref: 'InboundMailDomain' });
        expect(environment[INBOUND_MAIL_SWITCH_ENV], route.path).toBeUndefined();
      }
      expect(dashboardConfig(template, options).inboundMail).toBe(true);
    });
  });

  describe('where it is off (auto in eu-central-2, which has no SES receiving)', () => {
    const options: SynthOptions = { region: 'eu-central-2' };
    let template: Template;

    beforeAll(() => {
      template = synthGatehouse(options);
    }, 300_000);

    it('creates no SES receipt resources, no mail bucket or receiver, no domain parameter and no activation command', () => {

      for (const type of SES_TYPES) expect(template.findResources(type), type).toEqual({});
      const paths = Object.values(template.toJSON().Resources as Record<string, CfnResource>).map((resource) => String(resource.Metadata?.['aws:cdk:path'] ?? ''));
      expect(paths.filter((path) => path.startsWith('Gatehouse/InboundMail/'))).toEqual([]);
      expect(template.findParameters('InboundMailDomain')).toEqual({});
      expect(template.findOutputs('ActivateRuleSetCommand')).toEqual({});
    });

    it('gives the routes that create or change triggers GATEHOUSE_INBOUND_MAIL=off instead of a domain, and the dashboard inboundMail: false', () => {

      expect(MAIL_TRIGGER_ROUTES.map((route) => `${route.method} ${route.path}`).sort()).toEqual(['PATCH /triggers/{trigger_id}', 'POST /triggers']);
      for (const route of MAIL_TRIGGER_ROUTES) {
        const environment = environmentOf(template, functionIdFor(template, route));
        expect(environment[INBOUND_MAIL_SWITCH_ENV], route.path).toBe('off');
        expect(environment[INBOUND_MAIL_DOMAIN_ENV], route.path).toBeUndefined();
      }
      expect(dashboardConfig(template, options).inboundMail).toBe(false);
    });
  });
});

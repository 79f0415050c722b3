import { App } from 'aws-cdk-lib';
import { Template, type Template as TemplateType } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { FEDERATION_CONTEXT } from '#lib/constructs/sign-in';
import { GatehouseStack } from '#lib/stack';
import { synthGatehouse, TEST_DASHBOARD_SITE } from './synth';
import { declaredFunctions, functionIdFor, idAtPath, type CfnResource } from './template-queries';

/** The JSON of an AwsCustomResource call, with each reference written as its JSON. */
function sdkCall(value: unknown): Record<string, any> {
  const [, parts] = (value as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
  return JSON.parse(parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part).replaceAll('"', "'"))).join(''));
}

describe('sign-in on AWS (Cognito)', () => {
  let template: TemplateType;
  let poolId: string;
  let clientId: string;
  const ref = (id: string) => JSON.stringify({ Ref: id }).replaceAll('"', "'");

  beforeAll(() => {
    template = synthGatehouse();
    poolId = idAtPath(template, 'AWS::Cognito::UserPool', 'Gatehouse/SignIn/UserPool/Resource');
    clientId = idAtPath(template, 'AWS::Cognito::UserPoolClient', 'Gatehouse/SignIn/DashboardClient');
  }, 120_000);

  it('has one user pool: email as username, no self sign-up, strong passwords, optional TOTP, kept on deletion', () => {
    template.resourceCountIs('AWS::Cognito::UserPool', 1);
    const pool = template.findResources('AWS::Cognito::UserPool')[poolId] as CfnResource & { UpdateReplacePolicy?: string };

    expect(pool.DeletionPolicy).toBe('Retain');
    expect(pool.UpdateReplacePolicy).toBe('Retain');
    expect(pool.Properties).toMatchObject({
      UsernameAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      DeletionProtection: 'ACTIVE',
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      Policies: { PasswordPolicy: { MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true } },
    });
  });

  it('has managed login (version 2) on a Cognito domain, branded for the dashboard client', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { UserPoolId: { Ref: poolId }, ManagedLoginVersion: 2, Domain: { 'Fn::Join': ['', ['gatehouse-', { Ref: 'AWS::AccountId' }]] } });
    template.hasResourceProperties('AWS::Cognito::ManagedLoginBranding', { UserPoolId: { Ref: poolId }, ClientId: { Ref: clientId }, UseCognitoProvidedValues: true });
  });

  it('has a public dashboard client: no secret, no password flows, refresh tokens only, pool users only by default', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    const client = template.findResources('AWS::Cognito::UserPoolClient')[clientId] as CfnResource;

    expect(client.Properties).toMatchObject({ UserPoolId: { Ref: poolId }, GenerateSecret: false, ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'], SupportedIdentityProviders: ['COGNITO'], PreventUserExistenceErrors: 'ENABLED', EnableTokenRevocation: true });
  });

  it("applies the client's OAuth settings once the distribution exists: code grant only, the dashboard's scopes, its callback and sign-out URLs", () => {
    const [resource] = Object.values(template.findResources('Custom::AWS')) as CfnResource[];
    const client = (template.findResources('AWS::Cognito::UserPoolClient')[clientId] as CfnResource).Properties;
    const create = sdkCall(resource.Properties.Create);
    const cloudFront = JSON.stringify({ 'Fn::GetAtt': [idAtPath(template, 'AWS::CloudFront::Distribution', 'Gatehouse/Dashboard/Distribution/Resource'), 'DomainName'] }).replaceAll('"', "'");

    expect(sdkCall(resource.Properties.Update)).toEqual(create);
    expect(create).toMatchObject({ service: 'CognitoIdentityProvider', action: 'UpdateUserPoolClient', physicalResourceId: { id: ref(clientId) } });
    expect(create.parameters).toMatchObject({
      UserPoolId: ref(poolId),
      ClientId: ref(clientId),
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthScopes: ['openid', 'email', 'profile'],
      CallbackURLs: [`https://${cloudFront}/callback`],
      LogoutURLs: [`https://${cloudFront}/`],
    });
    // UpdateUserPoolClient resets what it is not given: the call repeats every setting of the template.
    for (const [name, value] of Object.entries(client).filter(([name]) => !['UserPoolId', 'GenerateSecret'].includes(name))) expect(create.parameters[name], name).toEqual(value);
  });

  it('lets the provider of that call update this one pool\'s clients and nothing else', () => {
    const policies = (Object.values(template.findResources('AWS::IAM::Policy')) as CfnResource[]).filter(({ Metadata }) => Metadata?.['aws:cdk:path']?.startsWith('Gatehouse/SignIn/'));
    const statements = policies.flatMap(({ Properties }) => Properties.PolicyDocument.Statement as Record<string, unknown>[]);

    expect(statements).toContainEqual({ Action: 'cognito-idp:UpdateUserPoolClient', Effect: 'Allow', Resource: { 'Fn::GetAtt': [poolId, 'Arn'] } });
    expect(statements.filter(({ Action }) => String(Action).startsWith('cognito-idp:'))).toHaveLength(1);
  });

  it('hands the issuer and the client id to the authorizer and the streaming route, and to no other function', () => {
    const functions = template.findResources('AWS::Lambda::Function') as Record<string, CfnResource>;
    const authorizerId = declaredFunctions(template).find(({ name }) => name === 'authorizer')!.id;
    const streamIds = routes.filter((route) => route.streaming).map((route) => functionIdFor(template, route));
    const expected = { GATEHOUSE_OIDC_ISSUER: { 'Fn::GetAtt': [poolId, 'ProviderURL'] }, GATEHOUSE_OIDC_CLIENT_ID: { Ref: clientId } };

    expect(streamIds).toHaveLength(1);
    for (const [id, fn] of Object.entries(functions)) {
      const variables = fn.Properties.Environment?.Variables ?? {};
      if ([authorizerId, ...streamIds].includes(id)) expect(variables, id).toMatchObject(expected);
      else expect(Object.keys(variables).filter((name) => name.startsWith('GATEHOUSE_OIDC_')), id).toEqual([]);
    }
  });

  it('outputs the pool, the client and the sign-in domain', () => {
    template.hasOutput('UserPoolId', { Value: { Ref: poolId } });
    template.hasOutput('UserPoolClientId', { Value: { Ref: clientId } });
    const domainId = idAtPath(template, 'AWS::Cognito::UserPoolDomain', 'Gatehouse/SignIn/UserPool/Domain/Resource');
    template.hasOutput('SignInDomain', { Value: { 'Fn::Join': ['', ['https://', { Ref: domainId }, '.auth.', { Ref: 'AWS::Region' }, '.amazoncognito.com']] } });
  });

  it('federates a company SAML IdP named in CDK context, and offers it on the dashboard client', () => {
    const app = new App({ builtinCloudFormationValidation: false, context: { 'aws:cdk:bundling-stacks': [], [FEDERATION_CONTEXT.samlMetadataUrl]: 'https://idp.example.com/metadata.xml', [FEDERATION_CONTEXT.samlProviderName]: 'Acme' } });
    const federated = Template.fromStack(new GatehouseStack(app, 'Gatehouse', { dashboardSite: TEST_DASHBOARD_SITE }));

    federated.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', { ProviderName: 'Acme', ProviderType: 'SAML', ProviderDetails: { MetadataURL: 'https://idp.example.com/metadata.xml' } });
    const [idpId] = Object.keys(federated.findResources('AWS::Cognito::UserPoolIdentityProvider'));
    federated.hasResourceProperties('AWS::Cognito::UserPoolClient', { SupportedIdentityProviders: ['COGNITO', { Ref: idpId }] });
    expect(template.findResources('AWS::Cognito::UserPoolIdentityProvider')).toEqual({});
  }, 120_000);
});

import { Aws, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnManagedLoginBranding,
  CfnUserPoolClient,
  ManagedLoginVersion,
  Mfa,
  UserPool,
  UserPoolDomain,
  UserPoolIdentityProviderSaml,
  UserPoolIdentityProviderSamlMetadata,
  ProviderAttribute,
} from 'aws-cdk-lib/aws-cognito';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId, type AwsSdkCall } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { acknowledgeUserPoolFindings } from '#lib/nag';

/** The scopes the dashboard asks for; the API reads the person's email from userinfo. */
export const DASHBOARD_SCOPES = ['openid', 'email', 'profile'] as const;

/** CDK context naming a company SAML IdP to federate (its metadata URL), and the name people see on the sign-in page. */
export const FEDERATION_CONTEXT = { samlMetadataUrl: 'gatehouse:samlMetadataUrl', samlProviderName: 'gatehouse:samlProviderName' } as const;
/** CDK context overriding the managed login domain's prefix (`<prefix>.auth.<region>.amazoncognito.com`). */
export const DOMAIN_PREFIX_CONTEXT = 'gatehouse:signInDomainPrefix';

/** The environment the API's token checks read: the authorizer's and the streaming routes'. */
export interface OidcEnvironment {
  GATEHOUSE_OIDC_ISSUER: string;
  GATEHOUSE_OIDC_CLIENT_ID: string;
}

/**
 * Sign-in for people on AWS: an Amazon Cognito user pool with its managed login, and the
 * dashboard's app client. Email is the username; nobody signs up: an administrator creates each
 * person (docs/deploying.md), whose first sign-in sets a password. A company IdP can be federated
 * (a SAML metadata URL in CDK context, or by hand: docs/deploying.md).
 *
 * The app client's OAuth settings (code grant, PKCE, the dashboard's callback URL) are applied by
 * `DashboardClientUrls` once the dashboard's distribution exists: the callback URL names the
 * distribution, whose origin is the API, whose authorizer and stream function need the client id,
 * so the client cannot wait for the distribution (CloudFormation would see a cycle).
 */
export class SignIn extends Construct {
  public readonly userPool: UserPool;
  public readonly domain: UserPoolDomain;
  public readonly client: CfnUserPoolClient;
  /** Identity providers besides Cognito's own users (`COGNITO`), by name. */
  public readonly federatedProviders: string[] = [];

  public constructor(scope: Construct, id: string) {
    super(scope, id);

    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: `${Stack.of(this).stackName}-people`,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      selfSignUpEnabled: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: { minLength: 12, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true, tempPasswordValidity: Duration.days(3) },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // People and their memberships outlive a stack deletion by mistake.
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgeUserPoolFindings(this.userPool);

    this.domain = this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix: this.domainPrefix() },
      managedLoginVersion: ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });
    this.federate();

    this.client = new CfnUserPoolClient(this, 'DashboardClient', { userPoolId: this.userPool.userPoolId });
    for (const [name, value] of Object.entries(this.clientSettings())) this.client.addPropertyOverride(name, value);
    this.client.addPropertyOverride('GenerateSecret', false);
    for (const provider of this.userPool.identityProviders) this.client.node.addDependency(provider);

    // Managed login (version 2) shows the pages of a client only once it has a branding style.
    const branding = new CfnManagedLoginBranding(this, 'Branding', { userPoolId: this.userPool.userPoolId, clientId: this.client.ref, useCognitoProvidedValues: true });
    branding.node.addDependency(this.domain);
  }

  /** `https://cognito-idp.<region>.amazonaws.com/<poolId>`: the issuer of the pool's tokens. */
  public get issuer(): string {
    return this.userPool.userPoolProviderUrl;
  }

  /** `https://<prefix>.auth.<region>.amazoncognito.com`: managed login and the OAuth endpoints. */
  public get signInUrl(): string {
    return this.domain.baseUrl();
  }

  public oidcEnvironment(): OidcEnvironment {
    return { GATEHOUSE_OIDC_ISSUER: this.issuer, GATEHOUSE_OIDC_CLIENT_ID: this.client.ref };
  }

  /**
   * The app client's settings without its OAuth part, in the shape of Cognito's
   * UpdateUserPoolClient (and of the CloudFormation resource): a public client (no secret) whose
   * only direct auth flow is refreshing tokens, so people sign in through managed login alone.
   */
  public clientSettings(): Record<string, unknown> {
    return {
      ClientName: 'dashboard',
      ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
      SupportedIdentityProviders: ['COGNITO', ...this.federatedProviders],
      AccessTokenValidity: 60,
      IdTokenValidity: 60,
      RefreshTokenValidity: 30,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
    };
  }

  /**
   * Lets the dashboard at `origin` (`https://<distribution domain>`, or its custom domain) sign people in: the
   * authorization code grant (the dashboard sends PKCE) with the dashboard's scopes, redirecting to
   * `<origin>/callback` after sign-in and to `<origin>/` after sign-out. Applied after the client
   * exists with UpdateUserPoolClient (see the class comment), which replaces every setting, so the
   * call carries the template's settings too and runs again whenever they change.
   */
  public allowDashboard(origin: string): AwsCustomResource {
    const role = new Role(this, 'ClientUrlsRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: "Applies the dashboard's OAuth settings to its Cognito app client" });
    const logGroup = new LogGroup(this, 'ClientUrlsLogs', { retention: RetentionDays.ONE_MONTH });
    logGroup.grantWrite(role);
    const update: AwsSdkCall = {
      service: 'CognitoIdentityProvider',
      action: 'UpdateUserPoolClient',
      parameters: {
        UserPoolId: this.userPool.userPoolId,
        ClientId: this.client.ref,
        ...this.clientSettings(),
        AllowedOAuthFlowsUserPoolClient: true,
        AllowedOAuthFlows: ['code'],
        AllowedOAuthScopes: [...DASHBOARD_SCOPES],
        CallbackURLs: [`${origin}/callback`],
        LogoutURLs: [`${origin}/`],
      },
      physicalResourceId: PhysicalResourceId.of(this.client.ref),
    };
    return new AwsCustomResource(this, 'DashboardClientUrls', {
      onCreate: update,
      onUpdate: update,
      // The client goes with the stack; nothing to undo.
      policy: AwsCustomResourcePolicy.fromStatements([new PolicyStatement({ actions: ['cognito-idp:UpdateUserPoolClient'], resources: [this.userPool.userPoolArn] })]),
      role,
      logGroup,
      installLatestAwsSdk: false,
    });
  }

  /** Globally unique per region: the stack's name and the account, unless CDK context names one. */
  private domainPrefix(): string {
    const configured: unknown = this.node.tryGetContext(DOMAIN_PREFIX_CONTEXT);
    if (typeof configured === 'string' && configured) return configured;
    const name = Stack.of(this).stackName.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 30);
    return `${name}-${Aws.ACCOUNT_ID}`;
  }

  /** A company SAML IdP from CDK context, its users matched to people by email. */
  private federate(): void {
    const metadataUrl: unknown = this.node.tryGetContext(FEDERATION_CONTEXT.samlMetadataUrl);
    if (typeof metadataUrl !== 'string' || !metadataUrl) return;
    const name: unknown = this.node.tryGetContext(FEDERATION_CONTEXT.samlProviderName);
    const provider = new UserPoolIdentityProviderSaml(this, 'CompanyIdp', {
      userPool: this.userPool,
      name: typeof name === 'string' && name ? name : 'Company',
      metadata: UserPoolIdentityProviderSamlMetadata.url(metadataUrl),
      attributeMapping: { email: ProviderAttribute.other('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress') },
    });
    this.federatedProviders.push(provider.providerName);
  }
}

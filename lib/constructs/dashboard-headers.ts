import { Aws, Duration } from 'aws-cdk-lib';
import { HeadersFrameOption, HeadersReferrerPolicy, ResponseHeadersPolicy } from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import type { SignIn } from '#lib/constructs/sign-in';

/**
 * The dashboard's Content-Security-Policy: everything from its own origin only, except what
 * sign-in needs. The browser fetches the issuer's discovery document and keys (cognito-idp) and
 * the token and userinfo endpoints (the managed login domain); sign-in itself is a navigation.
 */
export function contentSecurityPolicy(signIn: SignIn): string {
  const issuerOrigin = `https://cognito-idp.${Aws.REGION}.${Aws.URL_SUFFIX}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${issuerOrigin} ${signIn.signInUrl}`,
    `form-action 'self' ${signIn.signInUrl}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** Security headers on every answer of the distribution, the site's and the API's alike. */
export function dashboardHeaders(scope: Construct, signIn: SignIn): ResponseHeadersPolicy {
  return new ResponseHeadersPolicy(scope, 'SecurityHeaders', {
    comment: 'Gatehouse dashboard: HSTS, CSP, no framing, nosniff, referrer policy',
    securityHeadersBehavior: {
      strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
      contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicy(signIn), override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      contentTypeOptions: { override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
    },
  });
}

import { defineRule, type Rule, type RuleSpec } from '#shared/scans/detectors/rule-helpers';

/**
 * The security detector's rules: metadata only, no page parsing, so that exports can describe
 * the rules without bundling the detector.
 */
const MDN = 'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers';
const OWASP_CS = 'https://cheatsheetseries.owasp.org/cheatsheets';
const WSTG = 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing';

const rule = (spec: Omit<RuleSpec, 'detector' | 'rule_id'> & { id: string }): Rule =>
  defineRule({ ...spec, rule_id: `security.${spec.id}`, detector: 'security' });

export const SECURITY_RULES = {
  missingCsp: rule({
    id: 'missing-csp',
    name: 'MissingContentSecurityPolicy',
    title: 'No Content-Security-Policy',
    description: 'The site sends no Content-Security-Policy, so an injected script runs with the full rights of the page.',
    remediation: "Send a Content-Security-Policy header with at least default-src and script-src, without 'unsafe-inline' or 'unsafe-eval'.",
    references: [`${MDN}/Content-Security-Policy`, `${OWASP_CS}/Content_Security_Policy_Cheat_Sheet.html`, 'https://www.w3.org/TR/CSP3/'],
    cvss_vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:C/C:L/I:L/A:N',
  }),
  weakCsp: rule({
    id: 'weak-csp',
    name: 'WeakContentSecurityPolicy',
    title: "Content-Security-Policy allows 'unsafe-inline' or 'unsafe-eval' scripts",
    description: "The script policy allows inline scripts or eval without a nonce or hash, which undoes most of the protection against cross-site scripting.",
    remediation: "Remove 'unsafe-inline' and 'unsafe-eval' from script-src (or default-src); use nonces or hashes for the inline scripts you need.",
    references: [`${MDN}/Content-Security-Policy/script-src`, `${OWASP_CS}/Content_Security_Policy_Cheat_Sheet.html`],
    cvss_vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:C/C:L/I:L/A:N',
  }),
  missingHsts: rule({
    id: 'missing-hsts',
    name: 'MissingStrictTransportSecurity',
    title: 'No Strict-Transport-Security on https',
    description: 'Without HSTS a browser may reach the site over plain http first, where an attacker on the network can strip TLS.',
    remediation: 'Send Strict-Transport-Security: max-age=31536000; includeSubDomains on every https response.',
    references: ['https://www.rfc-editor.org/rfc/rfc6797', `${MDN}/Strict-Transport-Security`, `${OWASP_CS}/HTTP_Strict_Transport_Security_Cheat_Sheet.html`],
    cvss_vector: 'CVSS:3.1/AV:A/AC:H/PR:N/UI:R/S:U/C:H/I:L/A:N',
  }),
  weakHsts: rule({
    id: 'weak-hsts',
    name: 'ShortStrictTransportSecurity',
    title: 'Strict-Transport-Security max-age shorter than 180 days',
    description: 'An HSTS max-age below 15552000 seconds (180 days) lets the protection lapse between visits.',
    remediation: 'Raise max-age to at least 15552000, preferably 31536000 (one year).',
    references: ['https://www.rfc-editor.org/rfc/rfc6797#section-6.1.1', `${MDN}/Strict-Transport-Security`],
    cvss_vector: 'CVSS:3.1/AV:A/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N',
  }),
  missingNosniff: rule({
    id: 'missing-content-type-options',
    name: 'MissingContentTypeOptions',
    title: 'No X-Content-Type-Options: nosniff',
    description: 'Without nosniff a browser may guess a response is script or HTML although it was served as something else.',
    remediation: 'Send X-Content-Type-Options: nosniff on every response.',
    references: [`${MDN}/X-Content-Type-Options`, 'https://owasp.org/www-project-secure-headers/'],
    cvss_vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:L/A:N',
  }),
  missingFrameProtection: rule({
    id: 'missing-frame-protection',
    name: 'MissingFrameProtection',
    title: 'Pages can be framed by any site (clickjacking)',
    description: 'Neither X-Frame-Options nor a Content-Security-Policy frame-ancestors directive restricts who may embed the site.',
    remediation: "Send Content-Security-Policy: frame-ancestors 'self' (or 'none'), and X-Frame-Options: SAMEORIGIN for older browsers.",
    references: [`${MDN}/Content-Security-Policy/frame-ancestors`, 'https://www.rfc-editor.org/rfc/rfc7034', `${OWASP_CS}/Clickjacking_Defense_Cheat_Sheet.html`],
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:L/A:N',
  }),
  missingReferrerPolicy: rule({
    id: 'missing-referrer-policy',
    name: 'MissingReferrerPolicy',
    title: 'No Referrer-Policy (or unsafe-url)',
    description: 'Without a restrictive Referrer-Policy, full URLs (with paths and query strings) can leak to other sites.',
    remediation: 'Send Referrer-Policy: strict-origin-when-cross-origin (or stricter).',
    references: [`${MDN}/Referrer-Policy`, 'https://www.w3.org/TR/referrer-policy/'],
    cvss_vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
  }),
  cookieSecure: rule({
    id: 'cookie-missing-secure',
    name: 'CookieWithoutSecure',
    title: 'Cookie set without Secure on https',
    description: 'A cookie without the Secure attribute is also sent over plain http, where it can be read on the network.',
    remediation: 'Add the Secure attribute to every cookie set by an https site.',
    references: ['https://www.rfc-editor.org/rfc/rfc6265#section-4.1.2.5', `${MDN}/Set-Cookie`, `${OWASP_CS}/Session_Management_Cheat_Sheet.html`],
    cvss_vector: 'CVSS:3.1/AV:A/AC:H/PR:N/UI:R/S:U/C:H/I:N/A:N',
  }),
  cookieHttpOnly: rule({
    id: 'cookie-missing-httponly',
    name: 'CookieWithoutHttpOnly',
    title: 'Cookie set without HttpOnly',
    description: 'Scripts on the page can read a cookie without HttpOnly, so one cross-site scripting bug leaks it.',
    remediation: 'Add HttpOnly to every cookie that scripts do not need to read (session cookies above all).',
    references: ['https://www.rfc-editor.org/rfc/rfc6265#section-4.1.2.6', `${MDN}/Set-Cookie`, `${OWASP_CS}/Session_Management_Cheat_Sheet.html`],
    cvss_vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
  }),
  cookieSameSite: rule({
    id: 'cookie-missing-samesite',
    name: 'CookieWithoutSameSite',
    title: 'Cookie set without SameSite',
    description: 'Without an explicit SameSite attribute, browsers differ on whether the cookie goes along with cross-site requests (CSRF).',
    remediation: 'Add SameSite=Lax (or Strict) to every cookie; SameSite=None only together with Secure where cross-site use is intended.',
    references: ['https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#section-4.1.2.7', `${MDN}/Set-Cookie`, `${OWASP_CS}/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html`],
    cvss_vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:N/I:L/A:N',
  }),
  mixedContent: rule({
    id: 'mixed-content',
    name: 'MixedContent',
    title: 'https page loads a resource over http',
    description: 'A script, style, image or frame loaded over plain http from an https page can be read or replaced on the network.',
    remediation: 'Load every sub-resource over https (or with a relative URL), and consider Content-Security-Policy: upgrade-insecure-requests.',
    references: ['https://www.w3.org/TR/mixed-content/', 'https://developer.mozilla.org/en-US/docs/Web/Security/Mixed_content'],
    cvss_vector: 'CVSS:3.1/AV:A/AC:H/PR:N/UI:R/S:U/C:L/I:H/A:N',
  }),
  tlsCertificate: rule({
    id: 'tls-certificate-invalid',
    name: 'InvalidTlsCertificate',
    title: 'TLS certificate not trusted (invalid, expired or for another name)',
    description: 'Browsers warn on, or refuse, this certificate; users who click through are open to interception.',
    remediation: 'Serve a certificate from a publicly trusted CA that covers the host name, is within its validity period, and includes the full chain.',
    references: ['https://www.rfc-editor.org/rfc/rfc5280#section-6', `${OWASP_CS}/Transport_Layer_Security_Cheat_Sheet.html`],
    cvss_vector: 'CVSS:3.1/AV:A/AC:H/PR:N/UI:R/S:U/C:H/I:H/A:N',
  }),
  tlsProtocol: rule({
    id: 'tls-outdated-protocol',
    name: 'OutdatedTlsProtocol',
    title: 'TLS protocol older than TLS 1.2 negotiated',
    description: 'TLS 1.0 and 1.1 are deprecated (RFC 8996) and lack modern cipher suites.',
    remediation: 'Disable SSLv3, TLS 1.0 and TLS 1.1; offer TLS 1.2 and TLS 1.3 only.',
    references: ['https://www.rfc-editor.org/rfc/rfc8996', `${OWASP_CS}/Transport_Layer_Security_Cheat_Sheet.html`],
    cvss_vector: 'CVSS:3.1/AV:A/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N',
  }),
  exposedFile: rule({
    id: 'exposed-file',
    name: 'ExposedSensitiveFile',
    title: 'Sensitive file publicly readable',
    description: 'A file that usually holds secrets, source history or data (environment file, Git metadata, backup or dump) is served to anyone.',
    remediation: 'Remove the file from the web root or deny it in the server configuration, and rotate any secret it contained.',
    references: [`${WSTG}/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information`, 'https://cwe.mitre.org/data/definitions/538.html'],
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
  }),
  versionDisclosure: rule({
    id: 'server-version-disclosure',
    name: 'ServerVersionDisclosure',
    title: 'Server software version disclosed',
    description: 'Server or X-Powered-By names the exact software version, which tells attackers which known vulnerabilities to try.',
    remediation: 'Remove version numbers from Server (e.g. Apache ServerTokens Prod, nginx server_tokens off) and drop X-Powered-By.',
    references: [`${WSTG}/01-Information_Gathering/02-Fingerprint_Web_Server`, 'https://cwe.mitre.org/data/definitions/200.html'],
    cvss_vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
  }),
} as const;

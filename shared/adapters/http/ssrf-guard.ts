import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { reservedLoopbackPorts } from '#shared/config/loopback-ports';
import { InvalidRequestError } from '#shared/domain/errors';

/**
 * Keeps webhook deliveries away from our own network. Subscription URLs are client-chosen, so
 * without this a tenant could make the delivery worker POST to the instance metadata service, a
 * VPC-internal service or localhost, and read the answer through delivery logs.
 *
 * Two checks: `validateWebhookUrl` at subscription creation (syntax only, no DNS: a name's
 * answer can change later), and `assertDeliverableUrl` at delivery time, which resolves the host
 * and returns the address to connect to. The caller must connect to exactly that address
 * (see deliver-webhook.ts); resolving again at connect time would reopen DNS rebinding.
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export type Resolver = (host: string) => Promise<string[]>;

export interface DeliverableUrlOptions {
  /** Local runtime and tests only: permits loopback addresses and plain http. */
  allowLoopback: boolean;
  /** Loopback ports refused even so (the runtime's own engines); GATEHOUSE_RESERVED_LOOPBACK_PORTS by default. */
  reservedPorts?: ReadonlySet<number>;
  /** Defaults to the system resolver (`dns.lookup`, all addresses). */
  resolve?: Resolver;
}

/** Where to connect: the parsed URL (for path, Host and SNI) and the vetted address to pin. */
export interface PinnedTarget {
  url: URL;
  /** Hostname without IPv6 brackets; the Host header and TLS servername come from the URL. */
  hostname: string;
  address: string;
  family: 4 | 6;
}

/** The URL may not be delivered to (bad syntax, forbidden scheme, or a forbidden address). */
export class UndeliverableUrlError extends Error {
  constructor(
    readonly reason: 'invalid_url' | 'dns_failure' | 'forbidden_address',
    message: string,
  ) {
    super(message);
    this.name = 'UndeliverableUrlError';
  }
}

/**
 * Subscription-time check: throws `InvalidRequestError` (path `body.url`) unless the URL is
 * absolute http(s) (https unless `allowLoopback`), at most 2048 characters, without credentials,
 * and not a literal IP address in a forbidden range.
 */
export function validateWebhookUrl(url: unknown, options: { allowLoopback?: boolean; reservedPorts?: ReadonlySet<number> } = {}): URL {
  const allowLoopback = options.allowLoopback ?? false;
  const parsed = parseWebhookUrl(url, allowLoopback);
  if (typeof parsed === 'string') throw invalidUrl(parsed);
  const hostname = unbracket(parsed.hostname);
  if (isIP(hostname)) {
    const refusal = addressRefusal(hostname, allowLoopback);
    if (refusal) throw invalidUrl(`The URL points at ${refusal}, which webhooks may not be delivered to.`);
  }
  // `localhost` and `*.localhost` always mean loopback (RFC 6761): knowable without DNS.
  const isLocalhost = /(^|\.)localhost\.?$/i.test(hostname);
  if (!allowLoopback && isLocalhost) throw invalidUrl('The URL points at a loopback address, which webhooks may not be delivered to.');
  const reserved = reservedPortRefusal(parsed, isLocalhost ? '127.0.0.1' : hostname, options.reservedPorts);
  if (reserved) throw invalidUrl(`The URL points at ${reserved}, which webhooks may not be delivered to.`);
  return parsed;
}

/**
 * Delivery-time check: parses the URL, resolves its host and returns the address to connect to.
 * Refuses when ANY resolved address is forbidden (an attacker controlling DNS can mix a private
 * answer among public ones), when resolution fails, or when it answers nothing.
 */
export async function assertDeliverableUrl(url: string, options: DeliverableUrlOptions): Promise<PinnedTarget> {
  const parsed = parseWebhookUrl(url, options.allowLoopback);
  if (typeof parsed === 'string') throw new UndeliverableUrlError('invalid_url', parsed);
  const hostname = unbracket(parsed.hostname);
  const addresses = isIP(hostname) ? [hostname] : await resolveAll(hostname, options.resolve ?? systemResolve);
  for (const address of addresses) {
    const refusal = addressRefusal(address, options.allowLoopback) ?? reservedPortRefusal(parsed, address, options.reservedPorts);
    if (refusal) throw new UndeliverableUrlError('forbidden_address', `${hostname} resolves to ${refusal} (${address}).`);
  }
  const address = addresses[0];
  return { url: parsed, hostname, address, family: isIP(address) === 6 ? 6 : 4 };
}

/**
 * Loopback is allowed only where the local runtime runs, and there its own engines listen on
 * loopback too: a URL at one of their ports would let a tenant drive DynamoDB Local or the queues.
 */
function reservedPortRefusal(url: URL, address: string, reservedPorts: ReadonlySet<number> = reservedLoopbackPorts()): string | undefined {
  if (reservedPorts.size === 0 || !isLoopback(address)) return undefined;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return reservedPorts.has(port) ? `port ${port} of the local runtime's own engines` : undefined;
}

function isLoopback(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  const embedded = version === 6 ? embeddedIPv4(address) : undefined;
  if (embedded) return loopback.check(embedded, 'ipv4');
  return loopback.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

async function systemResolve(host: string): Promise<string[]> {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

async function resolveAll(hostname: string, resolve: Resolver): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch (error) {
    throw new UndeliverableUrlError('dns_failure', `Could not resolve ${hostname}: ${(error as Error).message}`);
  }
  if (addresses.length === 0) throw new UndeliverableUrlError('dns_failure', `${hostname} resolves to no address.`);
  return addresses;
}

/** Returns a problem message, or the parsed URL. Shared by both checks so they cannot drift. */
function parseWebhookUrl(url: unknown, allowLoopback: boolean): URL | string {
  if (typeof url !== 'string' || url.length === 0) return 'The URL must be a non-empty string.';
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return `The URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters.`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'The URL is not a valid absolute URL.';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'The URL must use https.';
  if (parsed.protocol === 'http:' && !allowLoopback) return 'The URL must use https.';
  // Credentials in the URL would be sent as Basic auth and show up in our logs; secrets belong in the signing secret.
  if (parsed.username !== '' || parsed.password !== '') return 'The URL must not contain credentials.';
  if (parsed.hostname === '') return 'The URL must have a host.';
  return parsed;
}

function invalidUrl(message: string): InvalidRequestError {
  return new InvalidRequestError('The webhook URL is not acceptable.', [{ path: 'body.url', message }]);
}

function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const metadata = new BlockList();
metadata.addAddress('169.254.169.254', 'ipv4'); // EC2/ECS/GCP/Azure instance metadata
metadata.addAddress('169.254.170.2', 'ipv4'); // ECS task credentials
metadata.addAddress('fd00:ec2::254', 'ipv6'); // EC2 metadata over IPv6

/** Everything that is not the public internet (IANA special-purpose registries), loopback aside. */
const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast 255.255.255.255
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::', 96], // IPv4-compatible (deprecated); ::1 is caught as loopback first
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments, includes Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4, embeds arbitrary IPv4
  ['fc00::', 7], // unique local, includes fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv6');
}

/**
 * Why an address is forbidden, or undefined when it is a public unicast address. IPv6 forms that
 * embed an IPv4 address (`::ffff:10.0.0.1`, NAT64 `64:ff9b::a00:1`) are judged by that IPv4
 * address, because that is where the packets end up.
 */
export function addressRefusal(address: string, allowLoopback: boolean): string | undefined {
  const version = isIP(address);
  // Zone ids (fe80::1%eth0) only make sense for link-local addresses, which are refused anyway.
  if (version === 0 || address.includes('%')) return 'an invalid address';
  if (version === 6) {
    const embedded = embeddedIPv4(address);
    if (embedded) return addressRefusal(embedded, allowLoopback);
  }
  const type = version === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(address, type)) return allowLoopback ? undefined : 'a loopback address';
  if (metadata.check(address, type)) return 'the instance metadata address';
  if (forbidden.check(address, type)) return 'a private or reserved address';
  return undefined;
}

/** The IPv4 address inside an IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) IPv6 address. */
function embeddedIPv4(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  const isMapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  const isNat64 = bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && bytes.slice(4, 12).every((b) => b === 0);
  return isMapped || isNat64 ? bytes.slice(12).join('.') : undefined;
}

/** 16 bytes of a valid IPv6 address (as accepted by `isIP`), with `::` and a trailing dotted quad expanded. */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

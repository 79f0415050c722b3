import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { addressRefusal, assertDeliverableUrl, UndeliverableUrlError, validateWebhookUrl } from '#shared/adapters/http/ssrf-guard';
import { InvalidRequestError } from '#shared/domain/errors';

const URL_ = 'https://hooks.example.com/gatehouse';
const answers = (...addresses: string[]) => vi.fn(async (_host: string) => addresses);

async function refusal(promise: Promise<unknown>): Promise<UndeliverableUrlError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UndeliverableUrlError);
  return error as UndeliverableUrlError;
}

describe('assertDeliverableUrl', () => {
  it.each([
    ['10/8 private', '10.1.2.3'],
    ['172.16/12 private, low end', '172.16.0.1'],
    ['172.16/12 private, high end', '172.31.255.255'],
    ['192.168/16 private', '192.168.1.10'],
    ['fc00::/7 unique local', 'fd12:3456:789a::1'],
    ['fc00::/7 unique local, fc half', 'fc00::1'],
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv4 loopback, elsewhere in 127/8', '127.255.0.9'],
    ['IPv6 loopback', '::1'],
    ['169.254/16 link-local', '169.254.10.20'],
    ['fe80::/10 link-local', 'fe80::1'],
    ['EC2 metadata', '169.254.169.254'],
    ['EC2 metadata over IPv6', 'fd00:ec2::254'],
    ['ECS credentials endpoint', '169.254.170.2'],
    ['IPv4 unspecified', '0.0.0.0'],
    ['IPv6 unspecified', '::'],
    ['100.64/10 CGNAT', '100.64.0.1'],
    ['100.64/10 CGNAT, high end', '100.127.255.254'],
    ['IPv4 multicast', '224.0.0.251'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv4 reserved', '240.0.0.1'],
    ['IPv4 broadcast', '255.255.255.255'],
    ['IPv4 documentation', '192.0.2.5'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv4-mapped private, dotted', '::ffff:10.0.0.1'],
    ['IPv4-mapped private, hex', '::ffff:a00:1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['IPv4-mapped, fully written out', '0:0:0:0:0:ffff:c0a8:0101'],
    ['NAT64 of the metadata address', '64:ff9b::a9fe:a9fe'],
    ['IPv4-compatible private', '::10.0.0.1'],
    ['6to4', '2002:a00:1::1'],
    ['a zoned link-local address', 'fe80::1%eth0'],
  ])('refuses a host resolving to %s (%s)', async (_, address) => {
    const error = await refusal(assertDeliverableUrl(URL_, { allowLoopback: false, resolve: answers(address) }));

    expect(error.reason).toBe('forbidden_address');
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts and pins the public address %s',
    async (address) => {
      const target = await assertDeliverableUrl(URL_, { allowLoopback: false, resolve: answers(address) });

      expect(target).toMatchObject({ address, hostname: 'hooks.example.com', family: address.includes(':') ? 6 : 4 });
      expect(target.url.href).toBe(URL_);
    },
  );

  it('refuses when any one answer is private, whatever its position', async () => {
    const resolve = answers('93.184.215.14', '2606:4700:4700::1111', '10.0.0.7');

    const error = await refusal(assertDeliverableUrl(URL_, { allowLoopback: false, resolve }));

    expect(error.reason).toBe('forbidden_address');
    expect(error.message).toContain('10.0.0.7');
  });

  it('pins the first answer when all are public, and resolves only once', async () => {
    const resolve = answers('93.184.215.14', '93.184.215.15');

    const target = await assertDeliverableUrl(URL_, { allowLoopback: false, resolve });

    expect(target.address).toBe('93.184.215.14');
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve).toHaveBeenCalledWith('hooks.example.com');
  });

  it('refuses when DNS fails', async () => {
    const resolve = vi.fn(async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.com'), { code: 'ENOTFOUND' });
    });

    const error = await refusal(assertDeliverableUrl(URL_, { allowLoopback: false, resolve }));

    expect(error.reason).toBe('dns_failure');
  });

  it('refuses when DNS answers nothing', async () => {
    const error = await refusal(assertDeliverableUrl(URL_, { allowLoopback: false, resolve: answers() }));

    expect(error.reason).toBe('dns_failure');
  });

  describe('with allowLoopback (local runtime and tests)', () => {
    it.each(['127.0.0.1', '::1', '::ffff:127.0.0.1'])('accepts loopback %s and plain http', async (address) => {
      const target = await assertDeliverableUrl('http://hooks.local:8080/x', { allowLoopback: true, resolve: answers(address) });

      expect(target.address).toBe(address);
    });

    it.each(['10.0.0.1', '169.254.169.254', '0.0.0.0', 'fd00:ec2::254'])('still refuses %s', async (address) => {
      const error = await refusal(assertDeliverableUrl('http://hooks.local/x', { allowLoopback: true, resolve: answers(address) }));

      expect(error.reason).toBe('forbidden_address');
    });
  });

  it.each([
    ['https://10.0.0.1/hook', 'private IPv4 literal'],
    ['https://[::ffff:10.0.0.1]/hook', 'mapped IPv6 literal'],
    ['https://0x7f.1/hook', 'loopback in hex shorthand (the URL parser normalises it)'],
    ['https://2130706433/hook', 'loopback as one decimal number'],
    ['https://[fd00:ec2::254]/latest/meta-data', 'metadata IPv6 literal'],
  ])('refuses the IP literal %s (%s) without asking DNS', async (url) => {
    const resolve = answers('93.184.215.14');

    const error = await refusal(assertDeliverableUrl(url, { allowLoopback: false, resolve }));

    expect(error.reason).toBe('forbidden_address');
    expect(resolve).not.toHaveBeenCalled();
  });

  it.each([
    ['http://hooks.example.com/', 'plain http'],
    ['ftp://hooks.example.com/', 'another scheme'],
    ['https://user:pass@hooks.example.com/', 'credentials'],
    ['not a url', 'garbage'],
  ])('refuses %s (%s) before resolving', async (url) => {
    const resolve = answers('93.184.215.14');

    const error = await refusal(assertDeliverableUrl(url, { allowLoopback: false, resolve }));

    expect(error.reason).toBe('invalid_url');
    expect(resolve).not.toHaveBeenCalled();
  });

  it('refuses every address in the private IPv4 ranges, in all three spellings', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const privateV4 = fc.oneof(
      fc.tuple(octet, octet, octet).map(([b, c, d]) => `10.${b}.${c}.${d}`),
      fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([b, c, d]) => `172.${b}.${c}.${d}`),
      fc.tuple(octet, octet).map(([c, d]) => `192.168.${c}.${d}`),
      fc.tuple(fc.integer({ min: 64, max: 127 }), octet, octet).map(([b, c, d]) => `100.${b}.${c}.${d}`),
      fc.tuple(octet, octet).map(([c, d]) => `169.254.${c}.${d}`),
    );
    const hex = (address: string) => {
      const [a, b, c, d] = address.split('.').map(Number);
      return `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    };

    fc.assert(
      fc.property(privateV4, (address) => {
        expect(addressRefusal(address, true)).toBeDefined();
        expect(addressRefusal(`::ffff:${address}`, true)).toBeDefined();
        expect(addressRefusal(hex(address), true)).toBeDefined();
      }),
    );
  });

  it('resolves localhost for real: loopback, accepted only with allowLoopback', async () => {
    const target = await assertDeliverableUrl('http://localhost:8080/hook', { allowLoopback: true });
    const error = await refusal(assertDeliverableUrl('https://localhost/hook', { allowLoopback: false }));

    expect(['127.0.0.1', '::1']).toContain(target.address);
    expect(error.reason).toBe('forbidden_address');
  });
});

describe('validateWebhookUrl', () => {
  it('returns the parsed URL of an acceptable https URL', () => {
    expect(validateWebhookUrl('https://hooks.example.com:8443/in?x=1').href).toBe('https://hooks.example.com:8443/in?x=1');
  });

  it('accepts a URL of exactly 2048 characters', () => {
    const url = `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`;

    expect(validateWebhookUrl(url).href).toBe(url);
  });

  it('accepts loopback and http only when allowed', () => {
    expect(validateWebhookUrl('http://127.0.0.1:3000/hook', { allowLoopback: true }).port).toBe('3000');
    expect(validateWebhookUrl('http://localhost:3000/hook', { allowLoopback: true }).port).toBe('3000');
    expect(validateWebhookUrl('https://notlocalhost.example/hook').hostname).toBe('notlocalhost.example');
    expect(() => validateWebhookUrl('http://127.0.0.1:3000/hook')).toThrow(InvalidRequestError);
  });

  it.each<[string, unknown]>([
    ['not a string', 42],
    ['empty', ''],
    ['relative', '/hooks'],
    ['garbage', 'ht!tp://'],
    ['plain http', 'http://hooks.example.com/'],
    ['another scheme', 'ftp://hooks.example.com/'],
    ['javascript', 'javascript:alert(1)'],
    ['credentials', 'https://user:pass@hooks.example.com/'],
    ['a username only', 'https://user@hooks.example.com/'],
    ['longer than 2048', `https://hooks.example.com/${'a'.repeat(2048)}`],
    ['a private IP literal', 'https://192.168.0.1/hook'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data/'],
    ['a loopback literal', 'https://[::1]/hook'],
    ['localhost by name', 'https://localhost/hook'],
    ['localhost with a trailing dot', 'https://LOCALHOST./hook'],
    ['a name under .localhost', 'https://api.localhost:8443/hook'],
  ])('rejects %s with a field error on body.url', (_, url) => {
    let error: unknown;
    try {
      validateWebhookUrl(url);
    } catch (e) {
      error = e;
    }

    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).errors).toEqual([{ path: 'body.url', message: expect.any(String) }]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { assertDeliverableUrl, validateWebhookUrl } from '#shared/adapters/http/ssrf-guard';
import { RESERVED_LOOPBACK_PORTS_ENV, reservedLoopbackPorts } from '#shared/config/loopback-ports';

const reservedPorts = new Set([8000, 9324]);
const resolveTo = (...addresses: string[]) => async () => addresses;

describe('the local runtime\'s own engine ports', () => {
  afterEach(() => {
    delete process.env[RESERVED_LOOPBACK_PORTS_ENV];
  });

  it('refuses a loopback URL at a reserved port, in every spelling of loopback', () => {
    for (const url of ['http://127.0.0.1:8000/', 'http://127.8.9.10:9324/q', 'http://[::1]:8000/', 'http://[::ffff:127.0.0.1]:8000/', 'http://localhost:8000/', 'http://api.localhost:9324/']) {
      expect(() => validateWebhookUrl(url, { allowLoopback: true, reservedPorts }), url).toThrow(expect.objectContaining({ errors: [expect.objectContaining({ message: expect.stringContaining("local runtime's own engines") })] }));
    }
  });

  it('still accepts loopback at other ports, and a public host at a reserved port number', () => {
    expect(validateWebhookUrl('http://127.0.0.1:8001/hook', { allowLoopback: true, reservedPorts }).port).toBe('8001');
    expect(validateWebhookUrl('https://hooks.example.com:8000/', { allowLoopback: true, reservedPorts }).hostname).toBe('hooks.example.com');
  });

  it('counts the scheme\'s default port', () => {
    expect(() => validateWebhookUrl('http://127.0.0.1/', { allowLoopback: true, reservedPorts: new Set([80]) })).toThrow();
  });

  it('refuses at use a name that resolves to loopback at a reserved port (DNS chosen by the tenant)', async () => {
    await expect(assertDeliverableUrl('http://rebind.example:8000/', { allowLoopback: true, reservedPorts, resolve: resolveTo('127.0.0.1') })).rejects.toMatchObject({ reason: 'forbidden_address' });
    await expect(assertDeliverableUrl('http://rebind.example:8001/', { allowLoopback: true, reservedPorts, resolve: resolveTo('127.0.0.1') })).resolves.toMatchObject({ address: '127.0.0.1' });
  });

  it('reads the ports from GATEHOUSE_RESERVED_LOOPBACK_PORTS by default, and refuses a malformed list', () => {
    process.env[RESERVED_LOOPBACK_PORTS_ENV] = '8000, 9324';

    expect([...reservedLoopbackPorts()]).toEqual([8000, 9324]);
    expect(() => validateWebhookUrl('http://127.0.0.1:9324/', { allowLoopback: true })).toThrow();
    process.env[RESERVED_LOOPBACK_PORTS_ENV] = '8000,80a';
    expect(() => reservedLoopbackPorts()).toThrow(RESERVED_LOOPBACK_PORTS_ENV);
  });
});

/**
 * The local runtime's own engine ports (DynamoDB Local, the SQS emulator, the Lambda Invoke
 * stand-in, the SMTP listener, the API and OIDC server), comma-separated: lib/local/runtime.ts sets
 * it once they listen. Where loopback URLs are allowed (locally), webhook and integration URLs on
 * 127.0.0.1/::1/localhost at these ports are still refused, so a tenant cannot make the runtime
 * talk to its own table or queues. Unset on AWS, where loopback is refused altogether.
 */
export const RESERVED_LOOPBACK_PORTS_ENV = 'GATEHOUSE_RESERVED_LOOPBACK_PORTS';

/** The reserved ports; an entry that is not a port number fails loudly (a typo must not open one). */
export function reservedLoopbackPorts(): ReadonlySet<number> {
  const value = process.env[RESERVED_LOOPBACK_PORTS_ENV]?.trim();
  if (!value) return new Set();
  return new Set(
    value.split(',').map((entry) => {
      const port = Number(entry.trim());
      if (!/^\d{1,5}$/.test(entry.trim()) || port < 1 || port > 65_535) throw new Error(`Environment variable ${RESERVED_LOOPBACK_PORTS_ENV} must list port numbers separated by commas; got '${entry}'.`);
      return port;
    }),
  );
}

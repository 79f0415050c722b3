import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

/**
 * A customer-managed key as every key of the stack is made: yearly rotation, retained when the
 * stack or the resource goes away (data encrypted under a deleted key is lost), and an alias per
 * stack (`alias/<stack>/<name>`) so two stacks in one account and region do not collide.
 */
export function serviceKey(scope: Construct, id: string, name: string, description: string): Key {
  return new Key(scope, id, {
    description: `Gatehouse: ${description}`,
    enableKeyRotation: true,
    removalPolicy: RemovalPolicy.RETAIN,
    alias: `alias/${Stack.of(scope).stackName}/${name}`,
  });
}

/**
 * The keys of the service's data at rest, apart from the webhook secrets key (webhooks.ts, which
 * predates this construct: moving it would replace it, and every stored secret is encrypted under it).
 *
 * Four keys rather than one, because a key's users are everyone allowed to decrypt with it:
 * - `data`: the table (and its stream) and every queue and dead-letter queue. Nearly every function
 *   touches the table, so nearly every role may use this key;
 * - the secrets key: only the deliverer may decrypt (and two routes encrypt). Sharing `data` would
 *   give every table reader kms:Decrypt on signing secrets too, and the ciphertext sits in the table;
 * - `integrations`: tenants' provider credentials (GitHub tokens, Slack bot tokens, SMTP logins),
 *   apart from the webhook secrets for the same reason: only the tool proxy may decrypt them;
 * - `alarms`: the alarm topic's. CloudWatch (a service principal) must be able to use it, which no
 *   key protecting tenant data should allow.
 */
export class Keys extends Construct {
  /** The table, its stream, the queues and the dead-letter queues. */
  public readonly data: Key;
  /** The alarm topic; its policy lets CloudWatch alarms of this stack publish (monitoring.ts). */
  public readonly alarms: Key;
  /** Integration credentials: connecting routes seal with data keys from it, only the tool proxy opens them. */
  public readonly integrations: Key;

  public constructor(scope: Construct, id: string) {
    super(scope, id);
    this.data = serviceKey(this, 'DataKey', 'data', 'encrypts the table, its stream, and every queue and dead-letter queue.');
    this.alarms = serviceKey(this, 'AlarmsKey', 'alarms', 'encrypts the alarm notification topic.');
    this.integrations = serviceKey(this, 'IntegrationsKey', 'integrations', 'seals integration credentials (envelope encryption); only the tool proxy decrypts.');
  }
}

import { CfnOutput, CfnParameter, Stack, type StackProps } from 'aws-cdk-lib';
import { EmailIdentity } from 'aws-cdk-lib/aws-ses';
import type { Construct } from 'constructs';
import { Api } from '#lib/constructs/api';
import { Data } from '#lib/constructs/data';
import type { MailSettings } from '#lib/constructs/gatehouse-function';
import { ScheduleTargets } from '#lib/constructs/schedule-targets';
import { Schedules } from '#lib/constructs/schedules';
import { Tasks } from '#lib/constructs/tasks';
import { Webhooks } from '#lib/constructs/webhooks';
import { EventTriggers } from '#lib/constructs/event-triggers';
import { Exports } from '#lib/constructs/exports';
import { InboundMail } from '#lib/constructs/inbound-mail';
import { inboundMailEnabled } from '#lib/inbound-mail-option';
import { RecurringJobs } from '#lib/constructs/recurring-jobs';
import { Keys } from '#lib/constructs/keys';
import { Monitoring } from '#lib/constructs/monitoring';
import { SignIn } from '#lib/constructs/sign-in';
import { builtDashboardSource, Dashboard } from '#lib/constructs/dashboard';
import type { ISource } from 'aws-cdk-lib/aws-s3-deployment';

export interface GatehouseStackProps extends StackProps {
  /** The dashboard's files; default: the web app's build (web/dist), built when stale. */
  dashboardSite?: ISource;
}

/**
 * Gatehouse on AWS: the keys (data, alarms, integrations), the table, the queues with their
 * consumers (task worker, tool proxy, webhook deliverer), the one-time schedules with their targets
 * (approval expiry), webhooks (the secrets key, the fan-out on the table's stream), SES receiving for
 * mail triggers (InboundMail, where the `gatehouse:inboundMail` option has it: lib/inbound-mail-option.ts),
 * and the API (its streaming route included, in response streaming mode). Every function gets exactly what its access declaration says,
 * environment included, through `bindData`.
 *
 * Order matters only for what must exist before it is handed around: schedule targets and the
 * keys first (every function that schedules needs the targets' ARNs, the deliverer and the tool
 * proxy need their keys), then the queues with their consumers (the tool proxy first: others
 * invoke it), then inbound mail (its domain goes to the trigger routes), then the rest.
 * Monitoring (alarms, their topic, the dashboard) finds the stack's functions itself when the app
 * synthesizes.
 */
export class GatehouseStack extends Stack {
  public constructor(scope: Construct, id: string, props: GatehouseStackProps = {}) {
    const { dashboardSite, ...stackProps } = props;
    super(scope, id, stackProps);
    const mail = this.mailParameters();
    const keys = new Keys(this, 'Keys');
    const { table } = new Data(this, 'Data', { encryptionKey: keys.data });
    const schedules = new Schedules(this, 'Schedules');
    const targets = new ScheduleTargets(this, 'ScheduleTargets');
    const webhooks = new Webhooks(this, 'Webhooks', { queueKey: keys.data });
    const exportsStore = new Exports(this, 'Exports');
    const tasks = new Tasks(this, 'Tasks', { table, schedules, scheduleTargets: targets.targets, mail, secretsKey: webhooks.secretsKey, integrationsKey: keys.integrations, exportBucket: exportsStore.bucket, queueKey: keys.data });
    // Mail triggers' addresses are at its domain: the trigger routes get it (`inboundMail`), so
    // before the API. Only where SES receives mail, or as the option says (inbound-mail-option.ts).
    const inboundMail = inboundMailEnabled(this) ? new InboundMail(this, 'InboundMail', tasks.resources, keys.data) : undefined;
    tasks.resources.inboundMail = inboundMail ? { domain: inboundMail.domain } : 'off';
    targets.bind(tasks.resources);
    webhooks.bind(tasks.resources);
    const eventTriggers = new EventTriggers(this, 'EventTriggers', { queueKey: keys.data });
    eventTriggers.bind(tasks.resources);
    const { api, authorizerFunction, streamingFunctions } = new Api(this, 'Api', tasks.resources);
    // People's access tokens: the authorizer and the streaming routes (re-checking their caller) check them against the pool.
    const signIn = new SignIn(this, 'SignIn');
    for (const fn of [authorizerFunction, ...streamingFunctions.values()]) {
      for (const [name, value] of Object.entries(signIn.oidcEnvironment())) fn.addEnvironment(name, value);
    }
    new Dashboard(this, 'Dashboard', { site: dashboardSite ?? builtDashboardSource(), api, signIn, inboundMail: inboundMail !== undefined });
    this.outputs(signIn);
    new RecurringJobs(this, 'RecurringJobs', tasks.resources);
    // Watches every function of the stack, wherever it is created (see Monitoring).
    new Monitoring(this, 'Monitoring', { stage: api.deploymentStage, queues: tasks.queuesByName, otherDeadLetterQueues: { 'fan-out-failures': webhooks.fanOutFailures, 'event-trigger-failures': eventTriggers.failures, ...(inboundMail ? { 'inbound-mail-failures': inboundMail.failures } : {}) }, streamConsumer: webhooks.fanOut, triggerConsumer: eventTriggers.consumer, topicKey: keys.alarms });
  }

  /** What people and scripts need after a deploy (the dashboard's URL is the Dashboard construct's). */
  private outputs(signIn: SignIn): void {
    new CfnOutput(this, 'UserPoolId', { value: signIn.userPool.userPoolId, description: 'The Cognito user pool of the people who sign in to the dashboard (create them here)' });
    new CfnOutput(this, 'UserPoolClientId', { value: signIn.client.ref, description: "The dashboard's app client (GATEHOUSE_OIDC_CLIENT_ID of the API)" });
    new CfnOutput(this, 'SignInDomain', { value: signIn.signInUrl, description: 'Managed login of the user pool (sign-in pages and OAuth endpoints)' });
  }

  /**
   * The sender of approved mail; only the tool proxy sends, as MailFromIdentity only. While the
   * account is in the SES sandbox, SES also checks the sender's IAM policy against each recipient's
   * identity, so sandbox sends to verified test addresses are denied: request production access.
   */
  private mailParameters(): MailSettings {
    const from = new CfnParameter(this, 'MailFrom', {
      type: 'String',
      default: 'Gatehouse <no-reply@example.com>',
      description:
        'Sender of the mail Gatehouse sends on approval (MAIL_FROM), e.g. "Gatehouse <no-reply@example.com>". Its address must be an SES-verified identity, or belong to a verified domain, in this account and region: MailFromIdentity.',
      // One line with an address in it; the mailer checks the same at startup.
      allowedPattern: '.+@.+',
      constraintDescription: 'must be one sender address on one line, e.g. "Gatehouse <no-reply@example.com>".',
    });
    const identity = new CfnParameter(this, 'MailFromIdentity', {
      type: 'String',
      default: 'example.com',
      description:
        'The SES-verified identity MailFrom sends as, exactly as SES lists it: its domain (example.com) or, if only the address is verified, the address. The tool proxy may send as this identity only (ses:SendEmail on its ARN).',
      // A domain or an address; never a wildcard, which would let the tool proxy send as any identity.
      allowedPattern: '[A-Za-z0-9._+-]+(@[A-Za-z0-9.-]+)?',
      constraintDescription: 'must be a domain (example.com) or an email address (no-reply@example.com), without wildcards.',
    });
    return { from: from.valueAsString, identity: EmailIdentity.fromEmailIdentityName(this, 'MailIdentity', identity.valueAsString) };
  }
}

import { ArnFormat, Aws, CfnOutput, CfnParameter, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { ReceiptRuleSet, TlsPolicy, type IReceiptRuleAction, type ReceiptRuleActionConfig } from 'aws-cdk-lib/aws-ses';
import { Lambda as LambdaAction, LambdaInvocationType } from 'aws-cdk-lib/aws-ses-actions';
import type { aws_ses as sesRefs } from 'aws-cdk-lib/interfaces';
import { Construct } from 'constructs';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { INBOUND_MAIL_ENV } from '#shared/adapters/mail/inbound-store';
import { functionId, GatehouseFunction, type AccessDeclaration, type DataResources } from '#lib/constructs/gatehouse-function';
import { acknowledgeFailureDestination, acknowledgeInboundMailFindings } from '#lib/nag';

/**
 * The function SES receiving invokes for each message, declared once for the construct and the
 * tests. Its access: the table (the address's trigger, the run it claims), the task queues (the
 * task it starts) and the inbound domain (which recipients are mail triggers' addresses).
 */
export const receiveMail = {
  name: 'receive-mail',
  handler: 'functions/mail/receive-mail.ts',
  access: { table: 'read_write', dispatchTasks: true, inboundMail: true } satisfies AccessDeclaration,
  timeoutSeconds: 30,
  // SES accepts messages up to 40 MB; the raw message and its decoded parts are in memory together.
  memoryMb: 1024,
} as const;

/** Where the receipt rule's S3 action stores messages (`<prefix><SES message id>`). */
export const INBOUND_MAIL_PREFIX = 'inbound/';
/** How long a received message is kept: long enough to investigate a mail that started nothing. */
export const INBOUND_MAIL_RETENTION_DAYS = 30;
const RULE_NAME = 'deliver-to-gatehouse';

/**
 * The S3 action of aws-ses-actions lets SES write for any receipt rule of the account (its policy
 * has `aws:SourceAccount` only). This one also names the rule (`aws:SourceArn`), as SES documents:
 * the ARN is built from the rule's fixed name rather than referenced, because the rule depends on
 * the bucket policy (SES checks it may write when the rule is created) and a reference back would be a cycle.
 */
class S3ActionForRule implements IReceiptRuleAction {
  public constructor(private readonly props: { bucket: Bucket; prefix: string; ruleArn: string }) {}

  public bind(rule: sesRefs.IReceiptRuleRef): ReceiptRuleActionConfig {
    const { bucket, prefix, ruleArn } = this.props;
    bucket.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['s3:PutObject'],
        resources: [bucket.arnForObjects(`${prefix}*`)],
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID, 'aws:SourceArn': ruleArn } },
      }),
    );
    if (bucket.policy) rule.node.addDependency(bucket.policy);
    return { s3Action: { bucketName: bucket.bucketName, objectKeyPrefix: prefix } };
  }
}

/**
 * SES receiving for mail triggers: the `InboundMailDomain` parameter, a private bucket SES stores
 * each message in, and a receipt rule set whose one rule, for that domain, stores the message
 * (S3 action) and then hands it to `receive-mail` (Lambda action, asynchronous), which reads it from
 * the bucket and starts the tasks of the triggers it is addressed to.
 *
 * Two steps stay with the operator, as CloudFormation can do neither: the domain's MX record
 * (`inbound-smtp.<region>.amazonaws.com`; SES receives in a few regions only), and making the rule set
 * the active one (`ActivateRuleSetCommand` output). SES allows one active rule set per account and
 * region, so activating ours deactivates any other; deactivate it before deleting the stack, since
 * SES refuses to delete the active set.
 */
export class InboundMail extends Construct {
  /** The domain of mail triggers' addresses (the parameter's value). */
  public readonly domain: string;
  public readonly bucket: Bucket;
  public readonly ruleSet: ReceiptRuleSet;
  public readonly receiver: GatehouseFunction;
  /** SES events the receiver failed on after Lambda's two retries: the message is still in the bucket. */
  public readonly failures: Queue;

  public constructor(scope: Construct, id: string, resources: DataResources, queueKey: IKey) {
    super(scope, id);
    const stack = Stack.of(this);
    const domain = new CfnParameter(this, 'InboundMailDomain', {
      type: 'String',
      default: 'inbound.example.com',
      description:
        "Domain of mail triggers' addresses (t-...@<domain>), received by SES in this region. Point its MX record at inbound-smtp.<region>.amazonaws.com and verify it in SES; then make the receipt rule set active (the ActivateRuleSetCommand output): SES allows one active set per account and region, and CloudFormation cannot activate one.",
      // A lowercase DNS name of two labels or more: addresses are compared in lowercase.
      allowedPattern: '[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+',
      constraintDescription: 'must be a lowercase domain name such as inbound.example.com, without @ or wildcards.',
    });
    domain.overrideLogicalId('InboundMailDomain');
    this.domain = domain.valueAsString;

    this.bucket = new Bucket(this, 'Messages', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ prefix: INBOUND_MAIL_PREFIX, expiration: Duration.days(INBOUND_MAIL_RETENTION_DAYS) }],
      // Retained, not destroyed: CloudFormation cannot delete a bucket with objects in it without an
      // auto-delete custom resource (one more function, with s3:DeleteObject on tenants' mail).
      // The lifecycle rule outlives the stack, so a retained bucket still empties itself within 30 days.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.failures = new Queue(this, 'Failures', { enforceSSL: true, encryption: QueueEncryption.KMS, encryptionMasterKey: queueKey, retentionPeriod: Duration.days(14) });
    acknowledgeFailureDestination(this.failures);
    this.receiver = new GatehouseFunction(this, functionId(receiveMail.handler), {
      handlerFile: receiveMail.handler,
      timeout: Duration.seconds(receiveMail.timeoutSeconds),
      memorySize: receiveMail.memoryMb,
      // A mail whose tasks could not be started is not dropped silently: its event lands here (alarmed).
      onFailure: new SqsDestination(this.failures),
      environment: { [INBOUND_MAIL_ENV.bucket]: this.bucket.bucketName, [INBOUND_MAIL_ENV.prefix]: INBOUND_MAIL_PREFIX },
    });
    this.receiver.bindData(receiveMail.access, { ...resources, inboundMail: { domain: this.domain } });
    // Reads the stored messages only: not grantRead (s3:GetObject* and s3:List* on the whole bucket).
    this.receiver.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(`${INBOUND_MAIL_PREFIX}*`)] }));

    const ruleSetName = `${stack.stackName}-inbound-mail`;
    const ruleArn = stack.formatArn({ service: 'ses', resource: 'receipt-rule-set', resourceName: `${ruleSetName}:receipt-rule/${RULE_NAME}`, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
    // The Lambda action reuses a permission with this id: SES may invoke for this rule only.
    this.receiver.addPermission('AllowSes', { principal: new ServicePrincipal('ses.amazonaws.com'), action: 'lambda:InvokeFunction', sourceAccount: Aws.ACCOUNT_ID, sourceArn: ruleArn });
    this.ruleSet = new ReceiptRuleSet(this, 'RuleSet', { receiptRuleSetName: ruleSetName });
    this.ruleSet.addRule('Deliver', {
      receiptRuleName: RULE_NAME,
      recipients: [this.domain],
      // Spam and virus verdicts for the handler, which starts nothing for a flagged message.
      scanEnabled: true,
      tlsPolicy: TlsPolicy.REQUIRE,
      // In order: stored first, so the function finds the message when SES invokes it.
      actions: [
        new S3ActionForRule({ bucket: this.bucket, prefix: INBOUND_MAIL_PREFIX, ruleArn }),
        new LambdaAction({ function: this.receiver, invocationType: LambdaInvocationType.EVENT }),
      ],
    });
    acknowledgeInboundMailFindings(this.bucket, this.receiver.role!, INBOUND_MAIL_PREFIX);

    new CfnOutput(stack, 'ActivateRuleSetCommand', {
      value: `aws ses set-active-receipt-rule-set --rule-set-name ${this.ruleSet.receiptRuleSetName} --region ${Aws.REGION}`,
      description: 'Run once after the first deploy: makes the inbound mail rule set the active one of the account and region (it replaces any other active set).',
    });
  }
}

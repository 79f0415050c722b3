import { ArnFormat, Aspects, CfnCondition, CfnOutput, CfnParameter, Fn, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, AlarmStatusWidget, ComparisonOperator, Dashboard, TextWidget, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Function as LambdaFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnSubscription, Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct, type IConstruct } from 'constructs';
import { apiSection, catalogSection, functionSection, queueSection, streamSection, type AlarmSpec, type MonitoredQueue } from '#lib/constructs/monitoring/sections';
import { chunks, MAX_PER_WIDGET } from '#lib/constructs/monitoring/widgets';

export { ALARM_THRESHOLDS, oldestMessageAgeThresholdSeconds } from '#lib/constructs/monitoring/alarm-thresholds';

export interface MonitoringProps {
  /** The API's deployed stage: requests, errors and latency are per stage. */
  stage: Stage;
  /** Every queue of topology.ts by name (`Tasks.queuesByName`), each with its dead-letter queue. */
  queues: ReadonlyMap<string, MonitoredQueue>;
  /** Dead-letter queues that are no declared queue's redrive target, by name: the stream fan-out's failure queue. */
  otherDeadLetterQueues: Readonly<Record<string, IQueue>>;
  /** The table stream's fan-out, whose iterator age is watched. */
  streamConsumer: IFunction;
  /** The table stream's other reader, the event triggers' consumer (watched the same way). */
  triggerConsumer?: IFunction;
  /** The key of the alarm topic (`Keys.alarms`); CloudWatch alarms of this stack may use it. */
  topicKey: IKey;
}

/**
 * Alarms, their topic and the dashboard of the whole service.
 *
 * Every alarm notifies one SNS topic (KMS-encrypted, TLS only), on ALARM and on OK, so the team
 * sees recovery too; the stack parameter `AlarmEmail` subscribes an address, or nobody when empty.
 *
 * Alarms and dashboard are derived, not listed (monitoring/sections.ts): a DLQ alarm per declared
 * queue (topology.ts), an oldest-message alarm per declared queue, one errors-or-throttles alarm
 * per Lambda function of the stack, nested stacks included (the API's route functions and authorizer too).
 * Functions are collected when the app synthesizes (an aspect), after every construct exists, so a
 * function added anywhere in the stack, before or after this construct, is watched.
 */
export class Monitoring extends Construct {
  public readonly topic: Topic;
  public readonly alarmEmail: CfnParameter;
  /** Every alarm, once the stack is synthesized. */
  public readonly alarms: Alarm[] = [];
  private readonly alarmPrefix: string;
  private built = false;

  public constructor(
    scope: Construct,
    id: string,
    private readonly props: MonitoringProps,
  ) {
    super(scope, id);
    const stack = Stack.of(this);
    // Alarm names start with the stack name: notifications say which deployment, and the topic's
    // and key's policies admit exactly these alarms.
    this.alarmPrefix = `${stack.stackName}-`;
    const alarmArns = stack.formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: `${this.alarmPrefix}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    // Confused-deputy guard: CloudWatch may act only for this account's alarms of this stack.
    const onlyOurAlarms = { StringEquals: { 'aws:SourceAccount': stack.account }, ArnLike: { 'aws:SourceArn': alarmArns } };

    this.topic = new Topic(this, 'AlarmTopic', { displayName: `${stack.stackName} alarms`, masterKey: props.topicKey, enforceSSL: true });
    // A topic policy replaces SNS's default one, which is how CloudWatch would otherwise publish.
    this.topic.addToResourcePolicy(new PolicyStatement({ principals: [cloudWatch], actions: ['sns:Publish'], resources: [this.topic.topicArn], conditions: onlyOurAlarms }));
    // CloudWatch publishing to an encrypted topic needs the key; resource "*" in a key policy is this key.
    props.topicKey.addToResourcePolicy(new PolicyStatement({ principals: [cloudWatch], actions: ['kms:Decrypt', 'kms:GenerateDataKey*'], resources: ['*'], conditions: onlyOurAlarms }));

    this.alarmEmail = new CfnParameter(this, 'AlarmEmail', {
      type: 'String',
      default: '',
      description: 'E-mail address notified of every Gatehouse alarm and its recovery (SNS; confirm the subscription mail). Empty: no subscription; subscribe to the AlarmTopic output later.',
      allowedPattern: '^$|^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
      constraintDescription: 'must be one e-mail address, or empty for no subscription.',
    });
    this.alarmEmail.overrideLogicalId('AlarmEmail');
    const emailGiven = new CfnCondition(this, 'AlarmEmailGiven', { expression: Fn.conditionNot(Fn.conditionEquals(this.alarmEmail.valueAsString, '')) });
    emailGiven.overrideLogicalId('AlarmEmailGiven');
    const subscription = new CfnSubscription(this, 'AlarmEmailSubscription', { topicArn: this.topic.topicArn, protocol: 'email', endpoint: this.alarmEmail.valueAsString });
    subscription.cfnOptions.condition = emailGiven;
    new CfnOutput(this, 'AlarmTopicArn', { value: this.topic.topicArn, description: 'SNS topic every alarm notifies; subscribe more addresses or endpoints to it.' }).overrideLogicalId('AlarmTopicArn');

    // Built when the app synthesizes, once every function of the stack exists.
    Aspects.of(this).add({ visit: (node: IConstruct) => node === this && this.build() });
  }

  private build(): void {
    if (this.built) return;
    this.built = true;
    const addAlarm = (id: string, name: string, spec: AlarmSpec, watched?: IConstruct) => this.alarm(id, name, spec, watched);
    const { stage, queues, otherDeadLetterQueues, streamConsumer } = this.props;
    const sections = [
      ...apiSection(addAlarm, stage),
      ...queueSection(addAlarm, queues, otherDeadLetterQueues),
      ...functionSection(addAlarm, this.stackFunctions(), (fn) => this.label(fn)),
      ...streamSection(addAlarm, streamConsumer, this.props.triggerConsumer),
      ...catalogSection(addAlarm),
    ];
    const dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${Stack.of(this).stackName}-service` });
    dashboard.addWidgets(new TextWidget({ markdown: `# ${Stack.of(this).stackName}\nAlarms are explained in docs/operating/alarms.md.`, width: 24, height: 2 }));
    for (const chunk of chunks(this.alarms, MAX_PER_WIDGET)) dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: chunk, width: 24, height: 6 }));
    for (const row of sections) dashboard.addWidgets(...row);
  }

  /** Every Lambda function of the stack, in construct-path order (stable templates). */
  private stackFunctions(): LambdaFunction[] {
    return Stack.of(this)
      .node.findAll()
      .filter((node): node is LambdaFunction => node instanceof LambdaFunction)
      .sort((a, b) => a.node.path.localeCompare(b.node.path));
  }

  /** `Gatehouse/Api/Tasks/CreateTask` → `Api/Tasks/CreateTask`: how functions are named on the dashboard and in alarm names. */
  private label(construct: IConstruct): string {
    return construct.node.path.slice(Stack.of(this).node.path.length + 1);
  }

  /**
   * An alarm of this stack: named after it, notifying the topic on ALARM and on OK. An alarm on
   * something of a nested stack (a route group's function) is created in that nested stack, so the
   * root template does not grow with every route; it notifies the same topic.
   */
  private alarm(id: string, name: string, spec: AlarmSpec, watched?: IConstruct): Alarm {
    // Construct ids may not contain "/", which function labels do.
    const alarm = new Alarm(this.alarmScope(watched), id.replace(/\//g, '-'), {
      alarmName: `${this.alarmPrefix}${name}`.replace(/[^A-Za-z0-9_.-]/g, '-'),
      alarmDescription: `${spec.description} Runbook: docs/operating/alarms.md.`,
      metric: spec.metric,
      threshold: spec.threshold,
      evaluationPeriods: spec.evaluationPeriods ?? 1,
      comparisonOperator: spec.comparison ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // No data means nothing happened (no requests, no messages, no invocations): not an alarm.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
    return alarm;
  }

  /** Where the alarm on `watched` is created: here, or a construct of the nested stack `watched` belongs to. */
  private alarmScope(watched: IConstruct | undefined): Construct {
    const home = watched ? Stack.of(watched) : Stack.of(this);
    if (home === Stack.of(this)) return this;
    return (home.node.tryFindChild('Monitoring') as Construct | undefined) ?? new Construct(home, 'Monitoring');
  }
}

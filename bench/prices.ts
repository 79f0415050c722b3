/**
 * AWS list prices, us-east-1, on-demand, without free tiers (the benchmark prices a service at
 * scale, where free tiers are a rounding error). One table, each price with the page it comes
 * from; re-check them against those pages before quoting a figure. Recorded 2026-11-22 from the
 * published rates (DynamoDB's are the on-demand rates after the November 2024 reduction).
 */
export interface Price {
  /** US dollars per `unit`. */
  usd: number;
  unit: string;
  source: string;
}

export const PRICES_RECORDED_ON = '2026-11-22';

export const PRICES = {
  restApiRequest: { usd: 3.5 / 1e6, unit: 'REST API request (first 333 million a month)', source: 'https://aws.amazon.com/api-gateway/pricing/' },
  httpApiRequest: { usd: 1.0 / 1e6, unit: 'HTTP API request of up to 512 KB (first 300 million a month)', source: 'https://aws.amazon.com/api-gateway/pricing/' },
  lambdaRequest: { usd: 0.2 / 1e6, unit: 'Lambda invocation', source: 'https://aws.amazon.com/lambda/pricing/' },
  lambdaArmGbSecond: { usd: 0.0000133334, unit: 'GB-second, arm64 (first 7.5 billion a month)', source: 'https://aws.amazon.com/lambda/pricing/' },
  lambdaX86GbSecond: { usd: 0.0000166667, unit: 'GB-second, x86_64 (first 6 billion a month)', source: 'https://aws.amazon.com/lambda/pricing/' },
  lambdaEphemeralGbSecond: { usd: 0.0000000309, unit: 'GB-second of ephemeral storage above the free 512 MB', source: 'https://aws.amazon.com/lambda/pricing/' },
  dynamoWriteRequestUnit: { usd: 0.625 / 1e6, unit: 'DynamoDB on-demand write request unit', source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/' },
  dynamoReadRequestUnit: { usd: 0.125 / 1e6, unit: 'DynamoDB on-demand read request unit', source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/' },
  sqsRequest: { usd: 0.4 / 1e6, unit: 'SQS standard request (each 64 KB chunk of a payload is one request)', source: 'https://aws.amazon.com/sqs/pricing/' },
  schedulerInvocation: { usd: 1.0 / 1e6, unit: 'EventBridge Scheduler invocation (creating and deleting schedules is free)', source: 'https://aws.amazon.com/eventbridge/pricing/' },
  logsIngestedGb: { usd: 0.5, unit: 'GB of CloudWatch Logs ingested (Standard class, first tier)', source: 'https://aws.amazon.com/cloudwatch/pricing/' },
  xrayTraceRecorded: { usd: 5.0 / 1e6, unit: 'X-Ray trace recorded', source: 'https://aws.amazon.com/xray/pricing/' },
} as const satisfies Record<string, Price>;

export type PriceName = keyof typeof PRICES;

/** Bytes in one billed SQS request: a 200 KB message is four requests. */
export const SQS_CHUNK_BYTES = 64 * 1024;

/**
 * X-Ray's default sampling rule records the first request each second and 5% of the rest; at a
 * million tasks a month the 5% is what counts.
 */
export const XRAY_DEFAULT_SAMPLING_RATE = 0.05;

/**
 * Lambda writes START, END and REPORT lines for every invocation (REPORT with the X-Ray trace id
 * when tracing is on): about this many bytes, which CloudWatch Logs ingests like any other line.
 */
export const LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION = 350;

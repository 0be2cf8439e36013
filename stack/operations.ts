/**
 * The stack's alarms and its dashboard (docs/operations.md, "Alarms" and "The dashboard"), built
 * from the stack's functions (functions/families.ts) and read by serverless.yml through
 * stack/serverless-operations.cjs. Alarms are CloudFormation resources whatever the stage's
 * `alarmTopicArn`: without a topic they notify no one but still change state, on the dashboard and
 * in the console; with one, they notify it on ALARM and again on OK.
 *
 * The Lambda alarms watch every function of the stack with one Metrics Insights query each
 * (AWS, "Create a CloudWatch alarm based on a Metrics Insights query"), not one alarm per function:
 * 28 functions × 3 alarms would take the stack past 250 resources.
 */

/** What the alarms and the dashboard are built from, resolved by serverless.yml. */
export interface OperationsSettings {
  service: string;
  stage: string;
  /** The SNS topic the alarms notify; empty: none. */
  alarmTopicArn: string;
  /** serverless.yml's function names (their keys under `functions:`) with their timeouts (s). */
  functions: { name: string; timeout: number }[];
}

/** The thresholds (docs/operations.md lists them with what each alarm means). */
export const ALARM_THRESHOLDS = {
  /** Percent of the HTTP API's requests answered 5xx in 5 minutes, once it had this many requests. */
  http5xxPercent: 1,
  http5xxMinRequests: 20,
  /** Function errors (crashes and timeouts; handled errors answer 5xx) in 5 minutes, all functions but the agbot's. */
  lambdaErrors: 5,
  /** Throttled invocations in 5 minutes, all functions but the agbot's (one instance: it queues by design). */
  lambdaThrottles: 10,
  /** The longest invocation in 5 minutes, as a share of the timeout it shares with the others. */
  durationShareOfTimeout: 0.8,
  /** DynamoDB requests throttled in 5 minutes, every operation on the table and its indexes. */
  tableThrottles: 10,
  /** The age of the newest record the agbot's stream mapping read (ms): it is this far behind. */
  agbotIteratorAgeMs: 300_000,
  /** Five-minute periods in a row with a failed agbot round. */
  agbotFailingPeriods: 3,
  /** Messages in the agbot stream's failure queue. */
  agbotFailures: 1,
} as const;

/** The agbot's round (functions/agbot-round/function.ts), watched on its own. */
const AGBOT_ROUND = 'agbotRound';
/** The longest expression CloudWatch takes in an alarm's query (MetricDataQuery, Expression). */
export const MAX_EXPRESSION = 2048;
const PERIOD = 300;

type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties: Json;
}

/** `open-exchange-dev-agbotRound`: a function's name in AWS (the framework's `service-stage-name`). */
export const awsFunctionName = (settings: OperationsSettings, name: string) =>
  `${settings.service}-${settings.stage}-${name}`;

/** The agbot stream's failure queue (serverless.yml, `AgbotStreamFailures`). */
export const agbotFailureQueue = (settings: OperationsSettings) =>
  `${settings.service}-${settings.stage}-agbot-stream-failures`;

/** `open-exchange-dev-http-5xx`: an alarm's name. */
export const alarmName = (settings: OperationsSettings, suffix: string) =>
  `${settings.service}-${settings.stage}-${suffix}`;

/** A Metrics Insights query over some of the stack's functions, short enough for an alarm. */
export function lambdaQuery(
  settings: OperationsSettings,
  stat: 'SUM' | 'MAX',
  metric: string,
  names: string[],
): string {
  const where = names.map((name) => `FunctionName = '${awsFunctionName(settings, name)}'`).join(' OR ');
  const query = `SELECT ${stat}(${metric}) FROM SCHEMA("AWS/Lambda", FunctionName) WHERE ${where}`;
  if (query.length > MAX_EXPRESSION)
    throw new Error(
      `The ${metric} alarm's query is ${query.length} characters, over CloudWatch's ${MAX_EXPRESSION}: ` +
        `a shorter stage name, or split the alarm (stack/operations.ts)`,
    );
  return query;
}

function alarm(
  settings: OperationsSettings,
  suffix: string,
  description: string,
  properties: Json,
): Resource {
  const actions = settings.alarmTopicArn ? [settings.alarmTopicArn] : [];
  return {
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      AlarmName: alarmName(settings, suffix),
      AlarmDescription: `${description} (docs/operations.md, "Alarms")`,
      ActionsEnabled: actions.length > 0,
      AlarmActions: actions,
      OKActions: actions,
      TreatMissingData: 'notBreaching',
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      ...properties,
    },
  };
}

const lambdaMetric = (settings: OperationsSettings, metric: string, stat: string, name: string) => ({
  Namespace: 'AWS/Lambda',
  MetricName: metric,
  Dimensions: [{ Name: 'FunctionName', Value: awsFunctionName(settings, name) }],
  Statistic: stat,
  Period: PERIOD,
});

/** The one query an alarm watches. */
const insights = (expression: string) => ({
  Metrics: [{ Id: 'q', Expression: expression, Period: PERIOD, ReturnData: true }],
});

/** The alarms, by logical id (serverless.yml lists each). */
export function alarms(settings: OperationsSettings): Record<string, Resource> {
  const t = ALARM_THRESHOLDS;
  const names = settings.functions.map((f) => f.name);
  const notAgbot = names.filter((name) => name !== AGBOT_ROUND);
  // The duration alarm watches the functions that share the most common timeout (the provider's).
  const timeouts = settings.functions.map((f) => f.timeout);
  const common =
    [...new Set(timeouts)].sort(
      (a, b) => timeouts.filter((x) => x === b).length - timeouts.filter((x) => x === a).length,
    )[0] ?? 0;
  const sharing = settings.functions.filter((f) => f.timeout === common).map((f) => f.name);
  const apiMetric = (name: string, id: string) => ({
    Id: id,
    MetricStat: {
      Metric: {
        Namespace: 'AWS/ApiGateway',
        MetricName: name,
        Dimensions: [{ Name: 'ApiId', Value: { Ref: 'HttpApi' } }],
      },
      Period: PERIOD,
      Stat: 'Sum',
    },
    ReturnData: false,
  });
  return {
    HttpApi5xxAlarm: alarm(
      settings,
      'http-5xx',
      `Over ${t.http5xxPercent}% of the HTTP API's requests answered 5xx`,
      {
        Threshold: t.http5xxPercent,
        ComparisonOperator: 'GreaterThanThreshold',
        Metrics: [
          apiMetric('5xx', 'errors'),
          apiMetric('Count', 'requests'),
          {
            Id: 'rate',
            Expression: `IF(requests >= ${t.http5xxMinRequests}, 100 * errors / requests, 0)`,
            Label: '5xx (% of requests)',
            ReturnData: true,
          },
        ],
      },
    ),
    LambdaErrorsAlarm: alarm(settings, 'lambda-errors', 'Functions crashed or timed out', {
      Threshold: t.lambdaErrors,
      ...insights(lambdaQuery(settings, 'SUM', 'Errors', notAgbot)),
    }),
    LambdaThrottlesAlarm: alarm(
      settings,
      'lambda-throttles',
      'Invocations throttled (reserved or account concurrency)',
      {
        Threshold: t.lambdaThrottles,
        ...insights(lambdaQuery(settings, 'SUM', 'Throttles', notAgbot)),
      },
    ),
    LambdaDurationAlarm: alarm(
      settings,
      'lambda-duration',
      `An invocation took over ${t.durationShareOfTimeout * 100}% of its ${common} s timeout`,
      {
        Threshold: Math.round(common * 1000 * t.durationShareOfTimeout),
        ...insights(lambdaQuery(settings, 'MAX', 'Duration', sharing)),
      },
    ),
    TableThrottlesAlarm: alarm(
      settings,
      'table-throttles',
      'DynamoDB throttled requests on the table or its indexes',
      {
        Threshold: t.tableThrottles,
        ...insights(
          `SELECT SUM(ThrottledRequests) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = '${settings.service}-${settings.stage}'`,
        ),
      },
    ),
    AgbotIteratorAgeAlarm: alarm(
      settings,
      'agbot-stream-behind',
      "The agbot's stream mapping is over 5 minutes behind",
      {
        Threshold: t.agbotIteratorAgeMs,
        ...lambdaMetric(settings, 'IteratorAge', 'Maximum', AGBOT_ROUND),
      },
    ),
    AgbotStreamFailuresAlarm: alarm(
      settings,
      'agbot-stream-failures',
      "The agbot's stream mapping gave up on a batch",
      {
        Threshold: t.agbotFailures,
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: agbotFailureQueue(settings) }],
        Statistic: 'Maximum',
        Period: PERIOD,
      },
    ),
    AgbotFailingAlarm: alarm(
      settings,
      'agbot-failing',
      `The agbot's round failed in ${t.agbotFailingPeriods} five-minute periods in a row`,
      {
        Threshold: 1,
        EvaluationPeriods: t.agbotFailingPeriods,
        DatapointsToAlarm: t.agbotFailingPeriods,
        ...lambdaMetric(settings, 'Errors', 'Sum', AGBOT_ROUND),
      },
    ),
  };
}

type Widget = Json;
/**
 * A reference (`HttpApi`, `AWS::Region`) in the body, joined in by `Fn::Join`: not `Fn::Sub`,
 * whose `${...}` serverless would take for one of its own variables.
 */
const MARK = '¤';
const sub = (name: string) => `${MARK}${name}${MARK}`;
const widget = (title: string, properties: Json, width = 12, height = 6): Widget => ({
  type: 'metric',
  width,
  height,
  properties: { title, region: sub('AWS::Region'), view: 'timeSeries', period: PERIOD, ...properties },
});

/**
 * The dashboard's body (CloudWatch's dashboard body structure), references marked by `sub()`: the alarms' states, then the HTTP API, the functions, the
 * table and the agbot, top to bottom (docs/operations.md, "The dashboard").
 */
export function dashboardBody(settings: OperationsSettings): string {
  const names = settings.functions.map((f) => f.name);
  const api = (metric: string, stat: string, label: string) => [
    'AWS/ApiGateway',
    metric,
    'ApiId',
    sub('HttpApi'),
    { stat, label },
  ];
  const byFunction = (stat: 'SUM' | 'MAX', metric: string) => [
    {
      expression: `${lambdaQuery(settings, stat, metric, names)} GROUP BY FunctionName`,
      id: 'q',
      label: '',
    },
  ];
  const agbot = (metric: string, stat: string) => [
    'AWS/Lambda',
    metric,
    'FunctionName',
    awsFunctionName(settings, AGBOT_ROUND),
    { stat },
  ];
  const table = `${settings.service}-${settings.stage}`;
  const alarmArns = Object.values(alarms(settings)).map(
    (a) =>
      `arn:${sub('AWS::Partition')}:cloudwatch:${sub('AWS::Region')}:${sub('AWS::AccountId')}:alarm:${a.Properties.AlarmName}`,
  );
  const widgets: Widget[] = [
    { type: 'alarm', width: 24, height: 3, properties: { title: 'Alarms', alarms: alarmArns } },
    widget('HTTP API: requests, 4xx, 5xx', {
      stat: 'Sum',
      metrics: [api('Count', 'Sum', 'requests'), api('4xx', 'Sum', '4xx'), api('5xx', 'Sum', '5xx')],
    }),
    widget('HTTP API: latency (ms)', {
      metrics: [
        api('Latency', 'p50', 'p50'),
        api('Latency', 'p99', 'p99'),
        [
          'AWS/ApiGateway',
          'IntegrationLatency',
          'ApiId',
          sub('HttpApi'),
          { stat: 'p99', label: 'functions p99' },
        ],
      ],
    }),
    widget('Functions: errors', { metrics: [byFunction('SUM', 'Errors')] }, 8),
    widget('Functions: throttles', { metrics: [byFunction('SUM', 'Throttles')] }, 8),
    widget('Functions: longest invocation (ms)', { metrics: [byFunction('MAX', 'Duration')] }, 8),
    widget('Functions: concurrent executions', { metrics: [byFunction('MAX', 'ConcurrentExecutions')] }),
    widget('Table: capacity units and throttled requests', {
      stat: 'Sum',
      metrics: [
        ['AWS/DynamoDB', 'ConsumedReadCapacityUnits', 'TableName', table, { label: 'read units' }],
        ['AWS/DynamoDB', 'ConsumedWriteCapacityUnits', 'TableName', table, { label: 'write units' }],
        [
          {
            expression: `SELECT SUM(ThrottledRequests) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = '${table}'`,
            id: 't',
            label: 'throttled requests',
          },
        ],
      ],
    }),
    widget('Agbot: rounds, failures', {
      metrics: [agbot('Invocations', 'Sum'), agbot('Errors', 'Sum'), agbot('Throttles', 'Sum')],
    }),
    widget('Agbot: stream iterator age (ms)', { metrics: [agbot('IteratorAge', 'Maximum')] }),
    widget("Agbot: the stream's failure queue (messages)", {
      metrics: [
        [
          'AWS/SQS',
          'ApproximateNumberOfMessagesVisible',
          'QueueName',
          agbotFailureQueue(settings),
          { stat: 'Maximum' },
        ],
      ],
    }),
  ];
  return JSON.stringify({ widgets });
}

/** The body as `Fn::Join` of its text and its references. */
function joined(body: string): Json {
  const parts = body.split(MARK);
  return { 'Fn::Join': ['', parts.map((part, i) => (i % 2 === 1 ? { Ref: part } : part))] };
}

/** Everything this module adds to the stack, by logical id (serverless.yml lists each). */
export function operationsResources(settings: OperationsSettings): Record<string, Resource> {
  return {
    ...alarms(settings),
    Dashboard: {
      Type: 'AWS::CloudWatch::Dashboard',
      Properties: {
        DashboardName: `${settings.service}-${settings.stage}`,
        DashboardBody: joined(dashboardBody(settings)),
      },
    },
  };
}

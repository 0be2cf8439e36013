import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { AGBOT_STREAM_RETRY, STREAM_BATCH_WINDOW_S } from '#functions/agbot-round/function';
import { FALLBACK, FAMILIES } from '#functions/families';
import { DISPATCH_RETRY } from '#functions/signals/function';
import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import { agbotStreamPatterns } from '#lib/feed/agbot-stream-filter';
import { functionName } from '#lib/openapi/serverless';
import { countedItemPatterns, signalStreamPatterns } from '#lib/signals/stream-filter';
import { ALARM_THRESHOLDS, MAX_EXPRESSION } from '../../stack/operations.ts';
import { OWN_ROLES, TABLE_ACTIONS, tableStatements } from '../../stack/permissions.ts';

/**
 * `serverless package` for real, then the CloudFormation template it wrote: far below the
 * 500-resource cap, four resources per family plus one route per mount whatever its number of
 * endpoints, exactly the API Gateway routes the route lists mount, and the total the README states.
 */
const root = resolve(import.meta.dirname, '..', '..');
const serverlessBin = createRequire(import.meta.url).resolve('serverless/bin/serverless.js');
const execFileAsync = promisify(execFile);

interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string | string[];
}
let out = '';
let templatePath = '';
let resources: Record<string, Resource> = {};

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'exchange-package-'));
  const buildDir = relative(root, join(out, 'build'));
  // Its own temp dir, so the test sees what packaging leaves there (below) and leaves nothing.
  mkdirSync(join(out, 'tmp'));
  // Asynchronously: a minute of blocked event loop makes the worker miss vitest's RPC deadline.
  await execFileAsync(process.execPath, [serverlessBin, 'package', '--package', join(out, 'package')], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      EXCHANGE_BUILD_DIR: buildDir,
      TMPDIR: join(out, 'tmp'),
      SLS_TELEMETRY_DISABLED: '1',
      SLS_NOTIFICATIONS_MODE: 'off',
    },
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`serverless package failed:\n${error.stdout}\n${error.stderr}`);
  });
  templatePath = join(out, 'package', 'cloudformation-template-update-stack.json');
  const template = JSON.parse(readFileSync(templatePath, 'utf8'));
  resources = template.Resources;
  // Bundling every function takes about a minute alone and four beside a full run on two cores:
  // the deadline only bounds a failure.
}, 600_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
/** The logical id serverless gives a function's resources: `agbotAgreements` → `AgbotAgreements`. */
const logicalName = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const httpNames = [...FAMILIES.map((f) => functionName(f.folder)), FALLBACK.name];
/** The signal channel's function (docs/signals.md): on the WebSocket API, not a route family. */
const SIGNALS = 'signals';
const names = [...httpNames, SIGNALS];
/** The in-stack agbot's function (docs/agbot.md, "In the stack"): on the table's stream and a schedule. */
const AGBOT_ROUND = 'agbotRound';
const agbotRoundResources = [
  'AgbotRoundLambdaFunction',
  'AgbotRoundLogGroup',
  'AgbotRoundRole',
  'AgbotRoundEventSourceMappingDynamodbExchangeTable',
  'AgbotRoundEventsRuleSchedule1',
  'AgbotRoundLambdaPermissionEventsRuleSchedule1',
];
/** The signal dispatcher (docs/signals.md): on the table's stream, with a role of its own. */
const SIGNALS_DISPATCH = 'signalsDispatch';
const signalsDispatchResources = [
  'SignalsDispatchLambdaFunction',
  'SignalsDispatchLogGroup',
  'SignalsDispatchRole',
  'SignalsDispatchEventSourceMappingDynamodbExchangeTable',
];

/** A function's resources: itself, its log group, its permission, its integration and the routes to it. */
function resourcesOf(name: string): string[] {
  const id = logicalName(name);
  const integrations = [`HttpApiIntegration${id}`, `${id}WebsocketsIntegration`];
  const own = [
    `${id}LambdaFunction`,
    `${id}LogGroup`,
    `${id}LambdaPermissionHttpApi`,
    `${id}LambdaPermissionWebsockets`,
    ...integrations,
  ];
  const routes = ofType('AWS::ApiGatewayV2::Route')
    .filter(([, r]) => integrations.some((i) => JSON.stringify(r.Properties?.Target).includes(`"${i}"`)))
    .map(([logicalId]) => logicalId);
  return [...own.filter((logicalId) => resources[logicalId]), ...routes];
}

/** The alarms (stack/operations.ts) and what each watches. */
const ALARM_IDS = {
  HttpApi5xxAlarm: 'AWS/ApiGateway 5xx',
  LambdaErrorsAlarm: 'Errors',
  LambdaThrottlesAlarm: 'Throttles',
  LambdaDurationAlarm: 'Duration',
  TableThrottlesAlarm: 'ThrottledRequests',
  AgbotIteratorAgeAlarm: 'IteratorAge',
  AgbotFailingAlarm: 'Errors',
  AgbotStreamFailuresAlarm: 'ApproximateNumberOfMessagesVisible',
};

/** Routes of the HTTP API (the WebSocket API's are the signal channel's). */
const httpRoutes = () =>
  ofType('AWS::ApiGatewayV2::Route').filter(
    ([, r]) => !JSON.stringify(r.Properties?.ApiId).includes('Websockets'),
  );

describe('the packaged CloudFormation template', () => {
  it('has fewer than 200 resources, and no Lambda versions', () => {
    expect(Object.keys(resources).length).toBeLessThan(200);
    expect(ofType('AWS::Lambda::Version')).toEqual([]);
  });

  it('has as many resources as the README says', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const stated = /(\d+) CloudFormation resources/.exec(readme)?.[1];
    expect(stated, 'README.md: "<n> CloudFormation resources"').toBeDefined();
    expect(Object.keys(resources).length, 'update the count in README.md').toBe(Number(stated));
  });

  it('has one function per family plus the catch-all, each with 4 resources plus one route per mount', () => {
    expect(
      ofType('AWS::Lambda::Function')
        .map(([id]) => id)
        .sort(),
    ).toEqual(
      [...names, AGBOT_ROUND, SIGNALS_DISPATCH].map((name) => `${logicalName(name)}LambdaFunction`).sort(),
    );
    // Function, log group, permission and integration, then the routes (docs/development.md).
    const mountsOf = new Map([
      ...FAMILIES.map((family) => [functionName(family.folder), family.mounts.length] as const),
      [FALLBACK.name, 1] as const,
      [SIGNALS, 3] as const,
    ]);
    for (const name of names) {
      const own = resourcesOf(name);
      expect(own.length, `${name}: ${own.join(', ')}`).toBe(4 + (mountsOf.get(name) ?? 0));
    }
  });

  it('is the shared resources plus those of the functions, nothing per endpoint', () => {
    const perFunction = [...names.flatMap(resourcesOf), ...agbotRoundResources, ...signalsDispatchResources];
    const shared = Object.keys(resources).filter((id) => !perFunction.includes(id));
    expect(shared.map((id) => resources[id]?.Type).sort()).toEqual(
      [
        // The alarms and the dashboard (stack/operations.ts).
        ...Object.keys(ALARM_IDS).map(() => 'AWS::CloudWatch::Alarm'),
        'AWS::CloudWatch::Dashboard',
        'AWS::ApiGatewayV2::Api',
        'AWS::ApiGatewayV2::Api',
        'AWS::ApiGatewayV2::Deployment',
        'AWS::ApiGatewayV2::Stage',
        'AWS::ApiGatewayV2::Stage',
        'AWS::DynamoDB::Table',
        'AWS::IAM::Role',
        // The admin's, the secrets manager's and the object store's (stack/permissions.ts).
        ...Object.keys(OWN_ROLES).map(() => 'AWS::IAM::Role'),
        'AWS::KMS::Alias',
        'AWS::KMS::Key',
        // The HTTP API's access log.
        'AWS::Logs::LogGroup',
        // The deployment bucket, then the object store's (docs/nmp.md#the-object-store).
        'AWS::S3::Bucket',
        'AWS::S3::Bucket',
        'AWS::S3::BucketPolicy',
        // The agbot stream's failure queue.
        'AWS::SQS::Queue',
      ].sort(),
    );
  });

  it('routes exactly the mounts of the route lists (method ANY) to their family', () => {
    const routeKeys = httpRoutes().map(([, r]) => String(r.Properties?.RouteKey));
    const mounts = [...FAMILIES.flatMap((f) => f.mounts), FALLBACK.mount].map((path) => `ANY ${path}`);
    expect(routeKeys.sort()).toEqual(mounts.sort());
    for (const family of FAMILIES) {
      const toFamily = resourcesOf(functionName(family.folder))
        .filter((id) => resources[id]?.Type === 'AWS::ApiGatewayV2::Route')
        .map((id) => String(resources[id]?.Properties?.RouteKey));
      expect(toFamily.sort(), family.folder).toEqual(family.mounts.map((path) => `ANY ${path}`).sort());
    }
  });

  it('has the signal channel: a WebSocket API whose three routes reach one function, whose address every function knows', () => {
    const signalRoutes = resourcesOf(SIGNALS)
      .filter((id) => resources[id]?.Type === 'AWS::ApiGatewayV2::Route')
      .map((id) => String(resources[id]?.Properties?.RouteKey));
    expect(signalRoutes.sort()).toEqual(['$connect', '$default', '$disconnect']);
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      const env = fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined;
      expect(JSON.stringify(env?.Variables?.EXCHANGE_SIGNALS_URL), id).toContain('"Ref":"WebsocketsApi"');
    }
    // Only the dispatcher posts to a connection (its own role): the shared role may not.
    const policies = JSON.stringify(resources.IamRoleLambdaExecution?.Properties?.Policies);
    expect(policies).not.toContain('execute-api:');
  });

  it('has the signal dispatcher: its function on the table stream (new change rows and counted items, retried, bisected, bounded) with a role of its own', () => {
    for (const id of signalsDispatchResources) expect(resources[id], id).toBeDefined();
    const mapping = resources.SignalsDispatchEventSourceMappingDynamodbExchangeTable?.Properties ?? {};
    expect(mapping.EventSourceArn).toEqual({ 'Fn::GetAtt': ['ExchangeTable', 'StreamArn'] });
    expect(mapping.MaximumBatchingWindowInSeconds ?? 0).toBe(0);
    expect(mapping.MaximumRetryAttempts).toBe(DISPATCH_RETRY.maximumRetryAttempts);
    expect(mapping.BisectBatchOnFunctionError).toBe(true);
    expect(mapping.MaximumRecordAgeInSeconds).toBe(DISPATCH_RETRY.maximumRecordAgeInSeconds);
    const filters = (mapping.FilterCriteria as { Filters: { Pattern: string }[] }).Filters;
    expect(filters.map((f) => JSON.parse(f.Pattern))).toEqual([
      ...signalStreamPatterns(),
      ...countedItemPatterns(),
    ]);
    const fn = resources.SignalsDispatchLambdaFunction?.Properties ?? {};
    expect(fn.Role).toEqual({ 'Fn::GetAtt': ['SignalsDispatchRole', 'Arn'] });
    const role = resources.SignalsDispatchRole?.Properties as {
      Policies: {
        PolicyDocument: { Statement: { Action: string[]; Resource: unknown[]; Condition?: unknown }[] };
      }[];
    };
    const statements = role.Policies.flatMap((p) => p.PolicyDocument.Statement);
    const byAction = (action: string) => statements.find((s) => s.Action.includes(action));
    expect(JSON.stringify(byAction('logs:PutLogEvents')?.Resource)).toContain('-signalsDispatch:*');
    expect(byAction('dynamodb:GetRecords')?.Resource).toEqual([
      { 'Fn::GetAtt': ['ExchangeTable', 'StreamArn'] },
    ]);
    expect(byAction('dynamodb:Query')?.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SIGNAL#*', 'SIGNALS#*'] },
    });
    const updates = statements.filter((s) => s.Action.includes('dynamodb:UpdateItem'));
    // The nodes' liveness items, the change feed's numbering (tables/feed/changes.ts), and the
    // orgs' counters (tables/org/stream-counts.ts).
    const feed = [
      'PENDINGCHANGES',
      'CHANGES',
      'CHANGES#*',
      'ALLCHANGES',
      'PUBLICCHANGES',
      'NODEFEED#*',
      'NODESFEED',
    ];
    expect(updates.map((s) => s.Condition)).toEqual(
      [['NODE#*'], feed, ['ORG#*']].map((keys) => ({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': keys },
      })),
    );
    const manage = JSON.stringify(byAction('execute-api:ManageConnections')?.Resource);
    // This stack's WebSocket API and stage only.
    expect(manage).toContain('{"Ref":"WebsocketsApi"},"/dev/POST/@connections/*"');
    expect(manage).toContain('{"Ref":"WebsocketsApi"},"/dev/DELETE/@connections/*"');
    expect(manage).not.toMatch(/execute-api:\*|"\*"/);
    expect(statements.flatMap((s) => s.Action).some((a) => /Scan|kms:/.test(a))).toBe(false);
    // It puts items only in the change feed's partitions.
    const puts = statements.filter((s) => s.Action.includes('dynamodb:PutItem'));
    expect(puts.map((s) => s.Condition)).toEqual([
      { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': feed } },
    ]);
  });

  it('has the in-stack agbot: its function on the table stream (filtered, batched) and every minute, with a role of its own', () => {
    for (const id of agbotRoundResources) expect(resources[id], id).toBeDefined();
    const table = resources.ExchangeTable?.Properties as Record<string, unknown>;
    expect(table.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    const mapping = resources.AgbotRoundEventSourceMappingDynamodbExchangeTable?.Properties ?? {};
    expect(mapping.EventSourceArn).toEqual({ 'Fn::GetAtt': ['ExchangeTable', 'StreamArn'] });
    expect(mapping.MaximumBatchingWindowInSeconds ?? 0).toBe(STREAM_BATCH_WINDOW_S);
    const filters = (mapping.FilterCriteria as { Filters: { Pattern: string }[] }).Filters;
    expect(filters.map((f) => JSON.parse(f.Pattern))).toEqual(agbotStreamPatterns(BUILT_IN_AGBOT));
    expect(resources.AgbotRoundEventsRuleSchedule1?.Properties?.ScheduleExpression).toBe('rate(1 minute)');
    // A batch whose round keeps failing: bisected, retried twice, never past ten minutes, then
    // described to the failure queue (docs/operations.md).
    expect(mapping.BisectBatchOnFunctionError).toBe(true);
    expect(mapping.MaximumRetryAttempts).toBe(AGBOT_STREAM_RETRY.maximumRetryAttempts);
    expect(mapping.MaximumRecordAgeInSeconds).toBe(AGBOT_STREAM_RETRY.maximumRecordAgeInSeconds);
    expect(AGBOT_STREAM_RETRY.maximumRetryAttempts).toBeLessThanOrEqual(3);
    expect(mapping.DestinationConfig).toEqual({
      OnFailure: { Destination: { 'Fn::GetAtt': ['AgbotStreamFailures', 'Arn'] } },
    });
    const queue = resources.AgbotStreamFailures?.Properties ?? {};
    expect(queue.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    expect(queue.SqsManagedSseEnabled).toBe(true);
    const fn = resources.AgbotRoundLambdaFunction?.Properties ?? {};
    expect(fn.Role).toEqual({ 'Fn::GetAtt': ['AgbotRoundRole', 'Arn'] });
    const env = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(env.EXCHANGE_API_URL)).toContain('"Ref":"HttpApi"');
    // No token in its environment: it reads the sealed one from the table.
    expect(Object.keys(env).filter((name) => /TOKEN/i.test(name))).toEqual([]);
  });

  it("limits the agbot's role to its log group, the stream, its own two partitions and the secrets key", () => {
    const role = resources.AgbotRoundRole?.Properties as {
      Policies: {
        PolicyDocument: { Statement: { Action: string[]; Resource: unknown[]; Condition?: unknown }[] };
      }[];
    };
    const statements = role.Policies.flatMap((p) => p.PolicyDocument.Statement);
    const byAction = (action: string) => statements.filter((s) => s.Action.includes(action));
    expect(JSON.stringify(byAction('logs:PutLogEvents')[0]?.Resource)).toContain('-agbotRound:*');
    expect(byAction('dynamodb:GetRecords')[0]?.Resource).toEqual([
      { 'Fn::GetAtt': ['ExchangeTable', 'StreamArn'] },
    ]);
    const table = byAction('dynamodb:UpdateItem')[0];
    expect(table?.Resource).toEqual([{ 'Fn::GetAtt': ['ExchangeTable', 'Arn'] }]);
    expect(table?.Condition).toEqual({
      'ForAllValues:StringEquals': {
        'dynamodb:LeadingKeys': [
          `AGBOT#${BUILT_IN_AGBOT.org}/${BUILT_IN_AGBOT.id}`,
          `AGBOTSTATE#${BUILT_IN_AGBOT.org}/${BUILT_IN_AGBOT.id}`,
        ],
      },
    });
    expect(byAction('kms:Decrypt')[0]?.Resource).toEqual([{ 'Fn::GetAtt': ['SecretsKey', 'Arn'] }]);
    expect(byAction('sqs:SendMessage')[0]?.Resource).toEqual([
      { 'Fn::GetAtt': ['AgbotStreamFailures', 'Arn'] },
    ]);
    expect(statements.flatMap((s) => s.Action).some((a) => a.startsWith('dynamodb:Scan'))).toBe(false);
    // Serverless v3 grants every stream event's reads and failure queue to the shared role too:
    // stack/shared-role-plugin.cjs takes them off (no function on it reads the stream).
    const shared = JSON.stringify(resources.IamRoleLambdaExecution?.Properties);
    expect(shared).not.toMatch(/GetRecords|StreamArn|sqs:/);
  });

  it("gives each function only what its code calls: the table's items on the shared role, Scan, KMS and S3 on roles of their own", () => {
    const statementsOf = (role: string) =>
      (
        (resources[role]?.Properties ?? { Policies: [] }) as {
          Policies: { PolicyDocument: { Statement: { Action: string[]; Resource: unknown[] }[] } }[];
        }
      ).Policies.flatMap((p) => p.PolicyDocument.Statement);
    const data = (role: string) =>
      statementsOf(role).filter((s) => !s.Action.some((a) => a.startsWith('logs:')));
    expect(data('IamRoleLambdaExecution')).toEqual(tableStatements());
    expect(TABLE_ACTIONS).not.toContain('dynamodb:Scan');
    const roleOf = (name: string) =>
      (
        resources[`${logicalName(name)}LambdaFunction`]?.Properties?.Role as
          | { 'Fn::GetAtt'?: string[] }
          | undefined
      )?.['Fn::GetAtt']?.[0];
    for (const [role, { function: name, extra }] of Object.entries(OWN_ROLES)) {
      expect(roleOf(name), name).toBe(role);
      const added = data(role).slice(tableStatements().length);
      expect(data(role).slice(0, tableStatements().length), role).toEqual(tableStatements());
      expect(
        added.map((s) => (s.Action[0]?.split(':')[1] === 'Scan' ? 'scan' : s.Action[0]?.split(':')[0])),
        role,
      ).toEqual(extra.map((e) => (e === 'scan' ? 'scan' : e)));
      // Its own log group only.
      expect(JSON.stringify(statementsOf(role)[0]?.Resource), role).toContain(`-${name}:*`);
    }
    const everyone = [...names, AGBOT_ROUND, SIGNALS_DISPATCH];
    const others = everyone.filter((name) => !Object.values(OWN_ROLES).some((r) => r.function === name));
    const custom: Record<string, string> = {
      agbotRound: 'AgbotRoundRole',
      signalsDispatch: 'SignalsDispatchRole',
    };
    for (const name of others) expect(roleOf(name), name).toBe(custom[name] ?? 'IamRoleLambdaExecution');
    // Scan: the admin's role only; KMS: the admin's, the secrets', the agbot's; S3: the objects'.
    const holders = (pattern: RegExp) =>
      ofType('AWS::IAM::Role')
        .filter(([id]) => statementsOf(id).some((s) => s.Action.some((a) => pattern.test(a))))
        .map(([id]) => id)
        .sort();
    expect(holders(/^dynamodb:Scan$/)).toEqual(['ExchangeAdminRole']);
    expect(holders(/^kms:/)).toEqual(['AgbotRoundRole', 'ExchangeAdminRole', 'ExchangeSecretsRole']);
    expect(holders(/^s3:/)).toEqual(['ExchangeObjectsRole']);
    expect(holders(/^execute-api:/)).toEqual(['SignalsDispatchRole']);
    expect(holders(/^sqs:/)).toEqual(['AgbotRoundRole']);
  });
});

describe('the stack as an operator runs it (docs/operations.md)', () => {
  /** serverless.yml's stage parameters and their defaults (the template is packaged with them). */
  const params = parseYaml(readFileSync(join(root, 'serverless.yml'), 'utf8'), { logLevel: 'error' }).params
    .default as Record<string, string | number | boolean>;

  it("leaves nothing in the temp directory: serverless-esbuild's zip staging is removed (stack/zip-staging-cleanup-plugin.cjs)", () => {
    expect(readdirSync(join(out, 'package')).filter((name) => name.endsWith('.zip')).length).toBeGreaterThan(
      10,
    );
    // tsx keeps its cache of compiled files there (`tsx-<uid>`), for every later run: not a leftover.
    expect(readdirSync(join(out, 'tmp')).filter((name) => !/^tsx-\d+$/.test(name))).toEqual([]);
  });

  it('keeps the data: the table and the secrets key (and the object store) survive deletion and replacement', () => {
    for (const id of ['ExchangeTable', 'SecretsKey', 'ObjectsBucket']) {
      expect(resources[id]?.DeletionPolicy, id).toBe('Retain');
      expect(resources[id]?.UpdateReplacePolicy, id).toBe('Retain');
    }
    const table = resources.ExchangeTable?.Properties ?? {};
    expect(table.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.DeletionProtectionEnabled).toBe(true);
  });

  it('throttles both API stages (rate and burst) with the stage parameters', () => {
    expect(resources.HttpApiStage?.Properties?.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: params.httpThrottleRate,
      ThrottlingBurstLimit: params.httpThrottleBurst,
    });
    expect(resources.WebsocketsDeploymentStage?.Properties?.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: params.websocketThrottleRate,
      ThrottlingBurstLimit: params.websocketThrottleBurst,
    });
    expect(params.httpThrottleRate).toBe(500);
    expect(params.websocketThrottleRate).toBe(200);
  });

  it('reserves concurrency for the functions that could starve the others, and exactly one for the agbot', () => {
    const reserved = Object.fromEntries(
      ofType('AWS::Lambda::Function')
        .filter(([, fn]) => fn.Properties?.ReservedConcurrentExecutions !== undefined)
        .map(([id, fn]) => [id, fn.Properties?.ReservedConcurrentExecutions]),
    );
    expect(reserved).toEqual({
      AgbotRoundLambdaFunction: 1,
      SignalsLambdaFunction: params.signalsConcurrency,
      UnrecognizedRouteLambdaFunction: params.fallbackConcurrency,
    });
  });

  it('is described by the runbook: every stage parameter with its default, every alarm by its name', () => {
    const runbook = readFileSync(join(root, 'docs', 'operations.md'), 'utf8');
    const section = runbook.slice(runbook.indexOf('## Stage parameters'), runbook.indexOf('## Limits'));
    const documented = Object.fromEntries(
      [...section.matchAll(/^\| `(\w+)` +\| +`([^`]*)` +\|/gm)].map(([, name, value]) => [name, value]),
    );
    expect(documented).toEqual(
      Object.fromEntries(
        Object.entries(params).map(([name, value]) => [
          name,
          typeof value === 'string' ? `"${value}"` : String(value),
        ]),
      ),
    );
    for (const [, alarm] of ofType('AWS::CloudWatch::Alarm')) {
      const suffix = String(alarm.Properties?.AlarmName).replace('open-exchange-dev-', '');
      expect(runbook, suffix).toMatch(new RegExp(`^\\| \`${suffix}\` +\\|`, 'm'));
    }
  });

  it('keeps every log group for the days of the stage parameter (30 by default)', () => {
    const groups = ofType('AWS::Logs::LogGroup');
    expect(groups.length).toBe(names.length + 3); // the functions', the agbot's, the dispatcher's, the access log
    for (const [id, group] of groups)
      expect(group.Properties?.RetentionInDays, id).toBe(params.logRetentionDays);
    expect(params.logRetentionDays).toBe(30);
  });

  it("writes the HTTP API's access log as one JSON object per request, without credentials", () => {
    const settings = resources.HttpApiStage?.Properties?.AccessLogSettings as {
      Format: string;
      DestinationArn: unknown;
    };
    expect(settings.DestinationArn).toEqual({ 'Fn::GetAtt': ['HttpApiLogGroup', 'Arn'] });
    // API Gateway fills each $context variable in: a number unquoted, the rest quoted.
    const line = JSON.parse(settings.Format.replace(/\$context\.[A-Za-z.]+/g, '1'));
    expect(Object.keys(line)).toEqual(
      expect.arrayContaining(['requestId', 'time', 'ip', 'method', 'path', 'status', 'latencyMs', 'error']),
    );
    expect(settings.Format).not.toMatch(/authorization|header|body/i);
  });

  it("has the alarms, made without a topic (no actions) by default, each Lambda query within CloudWatch's limit", () => {
    const alarms = Object.fromEntries(ofType('AWS::CloudWatch::Alarm'));
    expect(Object.keys(alarms).sort()).toEqual(Object.keys(ALARM_IDS).sort());
    expect(params.alarmTopicArn).toBe('');
    for (const [id, watched] of Object.entries(ALARM_IDS)) {
      const alarm = alarms[id]?.Properties ?? {};
      expect(alarm.AlarmActions, id).toEqual([]);
      expect(alarm.ActionsEnabled, id).toBe(false);
      expect(alarm.TreatMissingData, id).toBe('notBreaching');
      expect(JSON.stringify(alarm), id).toContain(watched.split(' ').at(-1));
    }
    const query = (id: string) =>
      String((alarms[id]?.Properties?.Metrics as { Expression: string }[] | undefined)?.[0]?.Expression);
    const allFunctions = [...names, AGBOT_ROUND, SIGNALS_DISPATCH];
    for (const id of ['LambdaErrorsAlarm', 'LambdaThrottlesAlarm']) {
      const watched = allFunctions.filter((name) => query(id).includes(`'open-exchange-dev-${name}'`));
      expect(watched.sort(), id).toEqual(allFunctions.filter((name) => name !== AGBOT_ROUND).sort());
      expect(query(id).length).toBeLessThanOrEqual(MAX_EXPRESSION);
    }
    expect(alarms.LambdaDurationAlarm?.Properties?.Threshold).toBe(
      29_000 * ALARM_THRESHOLDS.durationShareOfTimeout,
    );
    expect(query('TableThrottlesAlarm')).toContain("TableName = 'open-exchange-dev'");
    const agbot = alarms.AgbotFailingAlarm?.Properties ?? {};
    expect(agbot.Dimensions).toEqual([{ Name: 'FunctionName', Value: 'open-exchange-dev-agbotRound' }]);
    expect(agbot.EvaluationPeriods).toBe(ALARM_THRESHOLDS.agbotFailingPeriods);
  });

  it('has one dashboard, which shows every alarm', () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboards.length).toBe(1);
    const join = dashboards[0]?.[1].Properties?.DashboardBody as { 'Fn::Join': [string, unknown[]] };
    const [, parts] = join['Fn::Join'];
    const body = JSON.parse(parts.map((part) => (typeof part === 'string' ? part : 'REF')).join(''));
    const shown = JSON.stringify(body.widgets.find((w: { type: string }) => w.type === 'alarm'));
    for (const alarm of ofType('AWS::CloudWatch::Alarm'))
      expect(shown).toContain(`:alarm:${alarm[1].Properties?.AlarmName}`);
    expect(parts.filter((part) => typeof part !== 'string')).toContainEqual({ Ref: 'HttpApi' });
    // Each metric of a graph is an array: [namespace, name, dimensions…, options] or [{ expression }].
    const graphs = body.widgets.filter((w: { type: string }) => w.type === 'metric');
    expect(graphs.length).toBeGreaterThan(5);
    for (const graph of graphs as { properties: { title: string; metrics: unknown[] } }[])
      for (const metric of graph.properties.metrics)
        expect(Array.isArray(metric), graph.properties.title).toBe(true);
  });
});

/**
 * AWS's CloudFormation linter (cfn-lint, a Python program: `pipx install cfn-lint`, as .ci/run
 * does) on the packaged template: no error, and no warning but these, each about a DependsOn that
 * Serverless v3 writes although a Ref or GetAtt beside it already orders the two (W3005).
 */
const cfnLint = (process.env.PATH ?? '')
  .split(delimiter)
  .map((dir) => join(dir, 'cfn-lint'))
  .find((path) => existsSync(path));
const FRAMEWORK_WARNINGS: { why: string; resource: RegExp; dependsOn: RegExp }[] = [
  {
    why: 'an HTTP API route on its integration (its Target)',
    resource: /^HttpApiRoute/,
    dependsOn: /^HttpApiIntegration/,
  },
  { why: 'a function on its own role (its Role)', resource: /LambdaFunction$/, dependsOn: /Role$/ },
  {
    why: "the channel's invoke permission on its function",
    resource: /^SignalsLambdaPermissionWebsockets$/,
    dependsOn: /^SignalsLambdaFunction$/,
  },
  {
    why: "the HTTP API's stage on its access log group",
    resource: /^HttpApiStage$/,
    dependsOn: /^HttpApiLogGroup$/,
  },
];

describe.skipIf(!cfnLint)('cfn-lint on the packaged template', () => {
  if (!cfnLint) console.warn('cfn-lint is not on PATH: its check is skipped (pipx install cfn-lint)');

  it('finds no error, and warns only of the DependsOn the framework writes', async () => {
    const { stdout } = await execFileAsync(cfnLint as string, ['--format', 'json', templatePath], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; code?: number }) => ({
      stdout: error.stdout ?? '',
      code: error.code,
    }));
    const findings = JSON.parse(stdout || '[]') as {
      Level: string;
      Rule: { Id: string };
      Message: string;
      Location: { Path: (string | number)[] };
    }[];
    expect(findings.filter((f) => f.Level === 'Error').map((f) => `${f.Rule.Id} ${f.Message}`)).toEqual([]);
    const unexplained = findings.filter((f) => {
      const [, resource = '', attribute] = f.Location.Path.map(String);
      const dependsOn = /^'([^']+)' dependency already enforced/.exec(f.Message)?.[1] ?? '';
      return !(
        f.Rule.Id === 'W3005' &&
        attribute === 'DependsOn' &&
        FRAMEWORK_WARNINGS.some((w) => w.resource.test(resource) && w.dependsOn.test(dependsOn))
      );
    });
    expect(unexplained.map((f) => `${f.Rule.Id} ${f.Location.Path.join('/')}: ${f.Message}`)).toEqual([]);
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FALLBACK, FAMILIES } from '#functions/families';
import { functionName } from '#lib/openapi/serverless';

/**
 * `serverless package` for real, then the CloudFormation template it wrote: far below the
 * 500-resource cap, a handful of resources per family whatever its number of endpoints, and
 * exactly the API Gateway routes the route lists mount.
 */
const root = resolve(import.meta.dirname, '..', '..', '..');
const serverlessBin = createRequire(import.meta.url).resolve('serverless/bin/serverless.js');

interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
}
let out = '';
let resources: Record<string, Resource> = {};

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'exchange-package-'));
  const buildDir = relative(root, join(out, 'build'));
  const packaged = spawnSync(
    process.execPath,
    [serverlessBin, 'package', '--package', join(out, 'package')],
    {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        EXCHANGE_BUILD_DIR: buildDir,
        SLS_TELEMETRY_DISABLED: '1',
        SLS_NOTIFICATIONS_MODE: 'off',
      },
    },
  );
  if (packaged.status !== 0)
    throw new Error(`serverless package failed:\n${packaged.stdout}\n${packaged.stderr}`);
  const template = JSON.parse(
    readFileSync(join(out, 'package', 'cloudformation-template-update-stack.json'), 'utf8'),
  );
  resources = template.Resources;
}, 240_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
/** The logical id serverless gives a function's resources: `agbotAgreements` → `AgbotAgreements`. */
const logicalName = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const httpNames = [...FAMILIES.map((f) => functionName(f.folder)), FALLBACK.name];
/** The signal channel's function (docs/signals.md): on the WebSocket API, not a route family. */
const SIGNALS = 'signals';
const names = [...httpNames, SIGNALS];

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

  it('has one function per family plus the catch-all, each with at most 8 resources', () => {
    expect(
      ofType('AWS::Lambda::Function')
        .map(([id]) => id)
        .sort(),
    ).toEqual(names.map((name) => `${logicalName(name)}LambdaFunction`).sort());
    for (const name of httpNames) {
      const own = resourcesOf(name);
      expect(own.length, `${name}: ${own.join(', ')}`).toBeGreaterThanOrEqual(5);
      // 4 + one route per mount; the secrets family has three (issue 12: `allsecrets`), the
      // patterns family four (anax's `/patterns` and the documented `/deployment/patterns`, each
      // bare and with `{proxy+}`, since API Gateway's `{proxy+}` never matches an empty rest).
      expect(own.length, `${name}: ${own.join(', ')}`).toBeLessThanOrEqual(8);
    }
  });

  it('is the shared resources plus those of the functions, nothing per endpoint', () => {
    const perFunction = names.flatMap(resourcesOf);
    const shared = Object.keys(resources).filter((id) => !perFunction.includes(id));
    expect(shared.map((id) => resources[id]?.Type).sort()).toEqual([
      'AWS::ApiGatewayV2::Api',
      'AWS::ApiGatewayV2::Api',
      'AWS::ApiGatewayV2::Deployment',
      'AWS::ApiGatewayV2::Stage',
      'AWS::ApiGatewayV2::Stage',
      'AWS::DynamoDB::Table',
      'AWS::IAM::Role',
      'AWS::KMS::Alias',
      'AWS::KMS::Key',
      'AWS::S3::Bucket',
      'AWS::S3::BucketPolicy',
    ]);
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

  it('has the signal channel: a WebSocket API whose three routes reach one function, which every function may address', () => {
    const signalRoutes = resourcesOf(SIGNALS)
      .filter((id) => resources[id]?.Type === 'AWS::ApiGatewayV2::Route')
      .map((id) => String(resources[id]?.Properties?.RouteKey));
    expect(signalRoutes.sort()).toEqual(['$connect', '$default', '$disconnect']);
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      const env = fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined;
      expect(JSON.stringify(env?.Variables?.EXCHANGE_SIGNALS_URL), id).toContain('"Ref":"WebsocketsApi"');
    }
    const policies = JSON.stringify(resources.IamRoleLambdaExecution?.Properties?.Policies);
    expect(policies).toContain('execute-api:ManageConnections');
    expect(policies).toContain('/*/POST/@connections/*');
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { handler as getSecret } from '#functions/secrets/get-secret';
import { handler as putSecret } from '#functions/secrets/put-secret';
import { open, seal } from '#lib/secrets/envelope';
import { loadOrCreateMasterKey, localKeyProvider } from '#lib/secrets/local-key-provider';
import { useKeyProvider } from '#lib/secrets/provider';
import { bootstrap } from '#tables/bootstrap';
import { documentClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { secretKeys } from '#tables/secret/keys';
import { createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { type Comparison, callsPerRequest, compare } from './in-process.ts';
import { median, round, timed } from './stats.ts';

/**
 * GET and PUT of a secret (issue 12's benchmark): DynamoDB calls per request and the in-process
 * handler against the raw calls it needs (a consistent GetItem; a two-item TransactWriteItems, the
 * secret and its change row), with the local key provider; then the local envelope's own cost per
 * seal and per open (data key wrap/unwrap included).
 */
const ORG = 'bench-sec';
const NAME = 'db/password';
const ENVELOPE_RUNS = 2000;

interface SecretsFigures {
  get: { calls: number; comparison: Comparison };
  put: { calls: number; comparison: Comparison };
  envelope: { sealUs: number; openUs: number; runs: number };
}

export async function runSecretsBench(step: (text: string) => void = console.log): Promise<SecretsFigures> {
  const keyDir = mkdtempSync(join(tmpdir(), 'bench-secrets-'));
  const provider = localKeyProvider(loadOrCreateMasterKey(join(keyDir, 'master-key')));
  useKeyProvider(provider);
  try {
    await createTableIfMissing(tableName());
    await bootstrap();
    await createOrg(ORG);
    const admin = await createUser(ORG, 'boss', { password: 'boss-bench-pw', admin: true });
    const path = { organization: ORG, secret: NAME };
    const value = { key: 'user', value: 'x'.repeat(64) };
    const put = async () => {
      const result = await invoke(putSecret, { auth: admin, path, body: value });
      if (result.status !== 201) throw new Error(`PUT secret → ${result.status}: ${result.text}`);
    };
    const get = async () => {
      const result = await invoke(getSecret, { auth: admin, path });
      if (result.status !== 200) throw new Error(`GET secret → ${result.status}: ${result.text}`);
    };
    const rawGet = async () => {
      await documentClient.send(
        new GetCommand({ TableName: tableName(), Key: secretKeys.record(ORG, NAME), ConsistentRead: true }),
      );
    };
    const sealed = await seal(provider, JSON.stringify(value), { org: ORG, name: 'raw' });
    let rawId = 0;
    const rawPut = async () => {
      rawId += 1;
      await documentClient.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName(), Item: { ...secretKeys.record(ORG, 'raw'), sealed } } },
            {
              Put: {
                TableName: tableName(),
                Item: { pk: 'BENCH#RAWCHANGES', sk: String(rawId), resource: 'secret' },
              },
            },
          ],
        }),
      );
    };
    await put();
    const figures: SecretsFigures = {
      get: { calls: await callsPerRequest(get), comparison: await compare(get, rawGet) },
      put: { calls: await callsPerRequest(put), comparison: await compare(put, rawPut) },
      envelope: await envelopeCost(provider),
    };
    step(
      `secret GET ${figures.get.calls} calls ×${round(figures.get.comparison.ratio)}, PUT ${figures.put.calls} calls ×${round(figures.put.comparison.ratio)}; local seal ${figures.envelope.sealUs} µs, open ${figures.envelope.openUs} µs`,
    );
    return figures;
  } finally {
    useKeyProvider(undefined);
    rmSync(keyDir, { recursive: true, force: true });
  }
}

async function envelopeCost(
  provider: ReturnType<typeof localKeyProvider>,
): Promise<SecretsFigures['envelope']> {
  const context = { org: ORG, name: NAME };
  const plaintext = JSON.stringify({ key: 'user', value: 'x'.repeat(64) });
  const sealed = await seal(provider, plaintext, context);
  for (let i = 0; i < 200; i++) await open(provider, await seal(provider, plaintext, context), context);
  const sealTimes: number[] = [];
  const openTimes: number[] = [];
  for (let i = 0; i < ENVELOPE_RUNS; i++) {
    sealTimes.push(await timed(() => seal(provider, plaintext, context)));
    openTimes.push(await timed(() => open(provider, sealed, context)));
  }
  return {
    sealUs: round(median(sealTimes) * 1000, 1),
    openUs: round(median(openTimes) * 1000, 1),
    runs: ENVELOPE_RUNS,
  };
}

/** The section docs/benchmarks.md gets. */
export function secretsMarkdown(f: SecretsFigures): string {
  const row = (what: string, raw: string, r: { calls: number; comparison: Comparison }) =>
    `| ${what} | ${r.calls} | ${round(r.comparison.handlerMs)} | ${raw} | ${round(r.comparison.rawMs)} | ${round(r.comparison.ratio)} |`;
  return [
    '## Secrets (issue 12)',
    '',
    'In-process `GET` and `PUT /v1/orgs/{org}/secrets/{secret}` (warm, identity cached, local key provider)',
    'against the raw DynamoDB calls each needs (`npx tsx bench/secrets.ts`). The PUT is one transaction: the',
    'secret and its (pending) change row, the same two items as the raw baseline.',
    '',
    '| Request | DynamoDB calls / request | Handler median (ms) | Raw call | Raw median (ms) | Ratio |',
    '| --- | ---: | ---: | --- | ---: | ---: |',
    row('GET secret', 'GetItem', f.get),
    row('PUT secret', 'TransactWriteItems (2 items)', f.put),
    '',
    `Local envelope, median of ${f.envelope.runs.toLocaleString('en')} calls (AES-256-GCM, a fresh data key wrapped under the`,
    'master key per seal):',
    '',
    '| Operation | Median (µs) |',
    '| --- | ---: |',
    `| seal (new data key, wrap it, encrypt) | ${f.envelope.sealUs} |`,
    `| open (unwrap the data key, decrypt) | ${f.envelope.openUs} |`,
    '',
  ].join('\n');
}

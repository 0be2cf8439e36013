import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler as getService } from '#functions/services/get-service';
import { bootstrap } from '#tables/bootstrap';
import { documentClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { serviceKeys } from '#tables/service/keys';
import { createService, type ServiceRecord } from '#tables/service/records';
import { createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { type Comparison, callsPerRequest, compare } from './in-process.ts';
import { round } from './stats.ts';

/**
 * GET service (issue 10's benchmark): DynamoDB calls per request and in-process handler vs raw
 * GetItem, with 10 and with 10,000 services in the org. A warm GET is one GetItem (the caller's
 * identity is cached per instance), so neither figure may grow with the org.
 */
const ORG = 'bench-svc';
const BASE = 10;
const BIG = 10_000;

interface ServicesFigures {
  rows: { services: number; calls: number; comparison: Comparison }[];
}

const record = (i: number): ServiceRecord => ({
  org: ORG,
  id: `svc-${i}_1.0.0_amd64`,
  url: `svc-${i}`,
  version: '1.0.0',
  arch: 'amd64',
  public: false,
  owner: `${ORG}/alice`,
  label: `service ${i}`,
  description: `service ${i}`,
  documentation: '',
  sharable: 'multiple',
  matchHardware: '{}',
  requiredServices: '[]',
  userInput: '[]',
  deployment: '{"services":{"web":{"image":"nginx:1.25"}}}',
  deploymentSignature: 'signature',
  clusterDeployment: '',
  clusterDeploymentSignature: '',
  imageStore: '{}',
  lastUpdated: new Date().toISOString(),
  rev: 1,
});

/** The org's services beyond the first BASE, written 25 per BatchWriteItem in the table operation's layout. */
async function grow(total: number): Promise<void> {
  const items: Record<string, unknown>[] = [];
  for (let i = BASE; i < total; i++) {
    const r = record(i);
    items.push({ ...serviceKeys.record(ORG, r.id), gsi1pk: serviceKeys.orgIndex(ORG), gsi1sk: r.id, ...r });
  }
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const start = next;
      next += 25;
      let pending = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const result = await documentClient.send(
          new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
        );
        pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

export async function runServicesBench(step: (text: string) => void = console.log): Promise<ServicesFigures> {
  await createTableIfMissing(tableName());
  await bootstrap();
  await createOrg(ORG);
  const alice = await createUser(ORG, 'alice', { password: 'alice-bench-pw' });
  for (let i = 0; i < BASE; i++) await createService(record(i), { maxOwned: 0, orgMustExist: true });
  const target = record(0).id;
  const get = async () => {
    const result = await invoke(getService, { auth: alice, path: { organization: ORG, service: target } });
    if (result.status !== 200) throw new Error(`GET service → ${result.status}: ${result.text}`);
  };
  const raw = async () => {
    await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: serviceKeys.record(ORG, target), ConsistentRead: true }),
    );
  };
  const rows: ServicesFigures['rows'] = [];
  for (const services of [BASE, BIG]) {
    if (services > BASE) {
      step(`growing the org to ${services.toLocaleString('en')} services (BatchWriteItem)`);
      await grow(services);
    }
    const calls = await callsPerRequest(get);
    const comparison = await compare(get, raw);
    rows.push({ services, calls, comparison });
    step(
      `GET service with ${services} services: ${calls} DynamoDB calls/request, handler ${round(comparison.handlerMs)} ms vs raw GetItem ${round(comparison.rawMs)} ms (×${round(comparison.ratio)})`,
    );
  }
  return { rows };
}

/** The section docs/benchmarks.md gets. */
export function servicesMarkdown(figures: ServicesFigures): string {
  const lines = [
    '## GET service (issue 10)',
    '',
    'In-process `GET /v1/orgs/{org}/services/{service}` (warm, identity cached) against the raw GetItem it',
    'needs, with 10 and with 10,000 services in the org (`npx tsx bench/services.ts`).',
    '',
    '| Services in the org | DynamoDB calls / request | Handler median (ms) | Raw GetItem median (ms) | Ratio |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...figures.rows.map(
      (r) =>
        `| ${r.services.toLocaleString('en')} | ${r.calls} | ${round(r.comparison.handlerMs)} | ${round(r.comparison.rawMs)} | ${round(r.comparison.ratio)} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

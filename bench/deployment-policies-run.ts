import { BatchWriteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { handler as postPolicy } from '#functions/deployment-policies/post-policy';
import { serviceUrlPart } from '#lib/catalog/service-id';
import { bootstrap } from '#tables/bootstrap';
import { documentClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { deploymentPolicyKeys } from '#tables/deployment-policy/keys';
import { feedKeys } from '#tables/feed/keys';
import { orgKeys } from '#tables/keys/org';
import { serviceKeys } from '#tables/service/keys';
import { seedService } from '#test/support/catalog';
import { createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { type Comparison, callsPerRequest, compare } from './in-process.ts';
import { round } from './stats.ts';

/**
 * POST deployment policy (issue 10's benchmark): DynamoDB calls per request and in-process
 * handler vs the raw calls it needs, with 10 and with 10,000 services in the org. The referenced
 * service is looked up by its url's id prefix, so neither figure may grow with the org.
 */
const ORG = 'bench-pol';
const BASE = 10;
const BIG = 10_000;

interface PolicyFigures {
  rows: { services: number; calls: number; comparison: Comparison }[];
}

/** Services beyond the first BASE, 25 per BatchWriteItem, in the services table layout. */
async function grow(total: number): Promise<void> {
  for (let start = BASE; start < total; start += 25) {
    let pending = Array.from({ length: Math.min(25, total - start) }, (_, k) => {
      const url = `svc-${start + k}`;
      const id = `${url}_1.0.0_amd64`;
      const item = { ...serviceKeys.record(ORG, id), gsi1pk: serviceKeys.orgIndex(ORG), gsi1sk: id };
      return {
        PutRequest: {
          Item: {
            ...item,
            org: ORG,
            id,
            url,
            version: '1.0.0',
            arch: 'amd64',
            public: false,
            owner: `${ORG}/alice`,
          },
        },
      };
    });
    while (pending.length > 0) {
      const result = await documentClient.send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
      );
      pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
    }
  }
}

export async function runPolicyBench(step: (text: string) => void = console.log): Promise<PolicyFigures> {
  await createTableIfMissing(tableName());
  await bootstrap();
  await createOrg(ORG);
  const alice = await createUser(ORG, 'alice', { password: 'alice-bench-pw' });
  for (let i = 0; i < BASE; i++)
    await seedService(ORG, { url: `svc-${i}`, version: '1.0.0', arch: 'amd64', owner: `${ORG}/alice` });
  let n = 0;
  const body = {
    label: 'bench',
    service: { name: 'svc-1', org: ORG, arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
    constraints: ['purpose == bench'],
  };
  const post = async () => {
    const result = await invoke(postPolicy, {
      auth: alice,
      path: { organization: ORG, policy: `p${n++}` },
      body,
    });
    if (result.status !== 201) throw new Error(`POST policy → ${result.status}: ${result.text}`);
  };
  // What the handler needs: the url's versions, then the creating transaction.
  const raw = async () => {
    const name = `raw${n++}`;
    await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': serviceKeys.orgIndex(ORG),
          ':prefix': `${serviceUrlPart('svc-1')}_`,
        },
      }),
    );
    const now = new Date().toISOString();
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: { ...deploymentPolicyKeys.record(ORG, name), ...body, created: now },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: orgKeys.record(ORG),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...feedKeys.pending(`${now}#${name}`),
                org: ORG,
                id: name,
                resource: 'policy',
                operation: 'created',
              },
            },
          },
        ],
      }),
    );
  };
  const rows: PolicyFigures['rows'] = [];
  for (const services of [BASE, BIG]) {
    if (services > BASE) {
      step(`growing the org to ${services.toLocaleString('en')} services (BatchWriteItem)`);
      await grow(services);
    }
    const calls = await callsPerRequest(post);
    const comparison = await compare(post, raw);
    rows.push({ services, calls, comparison });
    step(
      `POST deployment policy with ${services} services: ${calls} DynamoDB calls/request, handler ${round(comparison.handlerMs)} ms vs raw ${round(comparison.rawMs)} ms (×${round(comparison.ratio)})`,
    );
  }
  return { rows };
}

/** The section docs/benchmarks.md gets. */
export function policyMarkdown(figures: PolicyFigures): string {
  return [
    '## POST deployment policy (issue 10)',
    '',
    'In-process `POST /v1/orgs/{org}/business/policies/{policy}` (warm, identity cached) against the raw',
    "calls it needs (the Query of the referenced url's versions, then the creating transaction with its",
    'pending change row), with 10 and with 10,000 services in the org',
    '(`npx tsx bench/deployment-policies.ts`).',
    '',
    '| Services in the org | DynamoDB calls / request | Handler median (ms) | Raw calls median (ms) | Ratio |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...figures.rows.map(
      (r) =>
        `| ${r.services.toLocaleString('en')} | ${r.calls} | ${round(r.comparison.handlerMs)} | ${round(r.comparison.rawMs)} | ${round(r.comparison.ratio)} |`,
    ),
    '',
  ].join('\n');
}

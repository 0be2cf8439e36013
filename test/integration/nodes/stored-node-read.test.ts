import { Entity, item, PutItemCommand, string } from 'dynamodb-toolbox';
import { describe, expect, it } from 'vitest';
import { storedItemReader } from '#tables/kernel/stored-item';
import { NodeEntity, nodeRepository } from '#tables/node/entity';
import { getNode } from '#tables/node/records';
import { ExchangeTable } from '#tables/table';
import { createNode, createOrg, createUser } from '#test/support/identities';
import { useTestTable } from '#test/support/table';

useTestTable();

/** getNode picks the stored attributes itself (tables/kernel/stored-item.ts): it must match the entity's formatter. */
const formatted = async (org: string, id: string) =>
  (await nodeRepository.get({ org, id }, { consistent: true })).Item;

describe('getNode reads a node as dynamodb-toolbox formats it', () => {
  it('with every attribute set', async () => {
    const node = {
      org: 'acme',
      id: 'full',
      tokenHash: 'scrypt$hash',
      name: 'full node',
      owner: 'acme/alice',
      nodeType: 'cluster',
      pattern: 'acme/p1',
      registeredServices: [{ url: 'acme/svc', numAgreements: 1, configState: 'active', properties: [] }],
      userInput: [{ serviceOrgid: 'acme', serviceUrl: 'svc', inputs: [{ name: 'a', value: 1 }] }],
      msgEndPoint: 'http://node',
      softwareVersions: { horizon: '2.31.0' },
      lastHeartbeat: '2026-11-26T10:00:00.000Z[UTC]',
      publicKey: 'PUBLIC',
      arch: 'arm64',
      heartbeatIntervals: { minInterval: 10, maxInterval: 60, intervalAdjustment: 5 },
      ha_group: 'group-1',
      lastUpdated: '2026-11-26T10:00:00.000Z[UTC]',
      clusterNamespace: 'edge',
      isNamespaceScoped: true,
      agreementCount: 1,
      agreementServices: { a1: { url: 'acme/svc', state: 'Finalized', lastUpdated: 'x' } },
    };
    await NodeEntity.build(PutItemCommand).item(node).send();
    const read = await getNode('acme', 'full');
    expect(read).toEqual(node);
    expect(read).toEqual(await formatted('acme', 'full'));
  });

  it('with only what registration writes, and undefined when there is no node', async () => {
    await createOrg('acme');
    const alice = await createUser('acme', 'alice');
    await createNode('acme', 'minimal', alice.user);
    const read = await getNode('acme', 'minimal');
    expect(read?.owner).toBe('acme/alice');
    expect(read).not.toHaveProperty('gsi1pk');
    expect(read).not.toHaveProperty('_et');
    expect(read).toEqual(await formatted('acme', 'minimal'));
    expect(await getNode('acme', 'nobody')).toBeUndefined();
  });

  it('refuses an entity whose attributes are stored renamed', () => {
    const renamed = new Entity({
      name: 'renamed',
      table: ExchangeTable,
      schema: item({ org: string().key(), id: string().key(), label: string().savedAs('l') }),
      computeKey: ({ org, id }: { org: string; id: string }) => ({ pk: org, sk: id }),
    });
    expect(() => storedItemReader(renamed)).toThrow('renamed: label is renamed or transformed');
  });
});

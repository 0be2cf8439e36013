import type { BoundSecretName } from '#lib/protocol/secret-binding-check';
import { nodeLevelCandidates, nodeMayReceive } from '#lib/secrets/binding-rule';
import { type ExchangeClient, jsonBody } from '../exchange-client.ts';
import { secretListing } from './secretsmanager.ts';

/**
 * `hzn deploycheck`'s last secret-binding check (anax compcheck's secret-manager check): each bound
 * secret must exist in the secrets manager under one of the names the agbot would read for the node
 * (lib/secrets/binding-rule.ts: with `enableNodeLevelSecrets` the node's own secret first). Upstream
 * asks the agbot's secure API; here the secrets manager is the Exchange's, read by listing names
 * (one GET per directory). The reason for the first missing secret, or undefined.
 */
export async function missingSecret(
  client: ExchangeClient,
  secretsOrg: string,
  bound: readonly BoundSecretName[],
  node: { org: string; id: string },
): Promise<string | undefined> {
  const listings = new Map<string, Promise<string[]>>();
  const listed = (path: string) => {
    let names = listings.get(path);
    if (!names) {
      names = listNames(client, path);
      listings.set(path, names);
    }
    return names;
  };
  const checked = new Set<string>();
  for (const { managerSecret, binding } of bound) {
    if (checked.has(managerSecret)) continue;
    checked.add(managerSecret);
    const nodeLevel = binding.enableNodeLevelSecrets === true && node.id !== '';
    const candidates = nodeLevelCandidates(managerSecret, node.id, nodeLevel).filter((name) =>
      nodeMayReceive(name, secretsOrg, node.org, node.id),
    );
    let found = false;
    for (const name of candidates) {
      const { listPath, entry } = secretListing(secretsOrg, name);
      if ((await listed(listPath)).includes(entry)) {
        found = true;
        break;
      }
    }
    if (!found)
      return binding.enableNodeLevelSecrets
        ? `Secret ${managerSecret} does not exist in the secret manager for either org level or user level.`
        : `Secret ${managerSecret} does not exist in the secret manager.`;
  }
  return undefined;
}

async function listNames(client: ExchangeClient, path: string): Promise<string[]> {
  const result = await client.expect('GET', path, [200, 404]);
  if (result.status === 404) return [];
  const names = jsonBody(result, client.url(path));
  return Array.isArray(names) ? names.map(String) : [];
}

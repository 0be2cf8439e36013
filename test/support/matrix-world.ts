import { beforeAll } from 'vitest';
import type { ExchangeUnderTest } from './in-process-exchange.ts';
import type { World } from './matrix.ts';
import { createOrgWorld, createUser, type Fixtures } from './world.ts';

/**
 * The callers every authorization matrix needs, created over HTTP once per file: a hub admin, two
 * orgs (`<prefix>-same`, `<prefix>-other`) with their users, node and agbots, and a target user.
 * `extra` seeds what one matrix needs beyond that. Returns the getter `defineMatrix` takes.
 */
export function useMatrixWorld(
  server: Pick<ExchangeUnderTest, 'http' | 'rootPassword'>,
  prefix: string,
  extra?: (world: World) => Promise<void>,
): () => World {
  let world: World | undefined;
  beforeAll(async () => {
    const fixtures: Fixtures = {
      http: server.http,
      root: { user: 'root/root', secret: server.rootPassword },
    };
    const hubAdmin = await createUser(fixtures, 'root', 'hubadmin', { hubAdmin: true });
    const [same, other] = await Promise.all([
      createOrgWorld(fixtures, `${prefix}-same`),
      createOrgWorld(fixtures, `${prefix}-other`),
    ]);
    const targetUser = await createUser(fixtures, same.org, 'target');
    const built: World = { ...fixtures, hubAdmin, same, other, targetUser };
    await extra?.(built);
    world = built;
  }, 120_000);
  return () => {
    if (!world) throw new Error('fixtures were not created (see the beforeAll failure)');
    return world;
  };
}

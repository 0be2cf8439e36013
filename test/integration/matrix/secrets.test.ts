import { randomBytes } from 'node:crypto';

import { join } from 'node:path';
import { describe } from 'vitest';
import { insertAgbotPolicy } from '#tables/agbot/policy-records';
import { createAgbot } from '#test/support/identities';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { defineMatrix } from '#test/support/matrix';
import { useMatrixWorld } from '#test/support/matrix-world';
import { tempDir } from '#test/support/temp-dir';
import { secretCases } from './cases/secrets.ts';

/**
 * Every secrets route (issue 12) × every kind of caller over HTTP to the handlers in this
 * process, with a master key of the file's own. Expected statuses: docs/exchange-catalog.md#secret-permissions plus the agbot
 * delivery rule (the multi-tenant agbot serves `same`'s deployment policies). A name's `/` reaches
 * the handlers as serverless-offline hands it over; test/e2e/secret-names-http.test.ts sends names
 * with `/` through serverless-offline itself.
 */
const keyDir = tempDir('secrets-matrix-');
const server = useInProcessExchange({
  env: { EXCHANGE_SECRETS_MASTER_KEY_FILE: join(keyDir, 'master-key') },
});
const getWorld = useMatrixWorld(server, 'sx', async (world) => {
  const id = `mt-${randomBytes(3).toString('hex')}`;
  world.multiTenantAgbot = await createAgbot('IBM', id, 'root/root', {
    token: `mt-token-${randomBytes(4).toString('hex')}`,
  });
  const served = world.same.org;
  const at = new Date().toISOString();
  await insertAgbotPolicy({
    org: 'IBM',
    id,
    policyId: `${served}_*`,
    businessPolOrgid: served,
    businessPol: '*',
    nodeOrgid: served,
    lastUpdated: at,
  });
});

describe.concurrent('secrets', () => defineMatrix(secretCases, getWorld, server.http));

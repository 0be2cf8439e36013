import { describe, expect, it } from 'vitest';
import type { Credentials } from '#test/support/http';
import { useSharedOffline } from './support/shared-offline.ts';

/**
 * The call sequences of upstream's own Exchange load drivers, unmodified in what they send and in
 * the answers they accept (open-horizon/exchange-api `src/test/go/node/node.go` and
 * `src/test/go/agbot/agbot.go`, local-user mode, one node, one agbot, one iteration of each
 * loop, each on a fresh org as their Makefile's `testnode` and `testagbot` start). A driver aborts
 * on any answer that is not 2xx nor one it lists; each call here is checked the same way, over
 * the real HTTP stack. The agbot driver aborted at its 6th call before issue 32.
 */
const server = useSharedOffline();
const root = (): Credentials => ({ user: 'root/root', secret: server.rootPassword });

const ORG = 'performancenodeagbot';
const EMAIL = 'perf@example.com';
const user: Credentials = { user: `${ORG}/${EMAIL}`, secret: 'iam-key' };
const SVC = { url: 'nodeagbotsvc', version: '1.2.3', arch: 'amd64' };
const SVC_ID = `${SVC.url}_${SVC.version}_${SVC.arch}`;
const PATTERN = 'drv-p1';
const NODE = 'drv-n1';
const node: Credentials = { user: `${ORG}/${NODE}`, secret: 'abc123' };
const AGBOT = 'drv-a1';
const agbot: Credentials = { user: `${ORG}/${AGBOT}`, secret: 'abcdef' };

const service = (url: string) => ({
  label: 'svc',
  public: true,
  url,
  version: SVC.version,
  sharable: 'singleton',
  deployment: '{"services":{"svc":{"image":"openhorizon/gps:1.2.3"}}}',
  deploymentSignature: 'a',
  arch: SVC.arch,
});

/** `deleteperforg.sh`, which the Makefile runs before each driver. */
const deletePerfOrg = async () => {
  const gone = await server.http('DELETE', `/v1/orgs/${ORG}`, { auth: root() });
  expect([204, 404]).toContain(gone.status);
};

/** Calls as the drivers' perfutils do: 2xx or one of `alsoGood`, else the driver stops. */
function driver() {
  const refused: string[] = [];
  let count = 0;
  const call = async (
    method: string,
    path: string,
    auth: Credentials,
    body?: unknown,
    alsoGood: number[] = [],
  ) => {
    count += 1;
    const result = await server.http(method, `/v1/${path}`, { auth, body });
    const good = (result.status >= 200 && result.status < 300) || alsoGood.includes(result.status);
    if (!good) refused.push(`call ${count}: ${method} ${path} → ${result.status} ${result.text}`);
    return result;
  };
  return { call, refused };
}

/** Both drivers begin alike (local-user mode): a fresh org, then the org, the user and a read of it. */
async function driverStart() {
  await deletePerfOrg();
  const started = driver();
  const { call } = started;
  await call('POST', `orgs/${ORG}`, root(), { label: 'perf test org', description: 'blah blah' }, [403]);
  await call(
    'POST',
    `orgs/${ORG}/users/${EMAIL}`,
    root(),
    { password: user.secret, admin: false, email: EMAIL },
    [400],
  );
  await call('GET', `orgs/${ORG}/users/${EMAIL}`, user);
  return started;
}

describe("upstream's Exchange load drivers", () => {
  it('node.go: org, user, services, pattern, agbot, then a node registers and heartbeats as it does', async () => {
    const { call, refused } = await driverStart();
    await call('POST', `orgs/${ORG}/services`, user, service(SVC.url), [403]);
    for (const s of [1, 2, 3]) await call('POST', `orgs/${ORG}/services`, user, service(`${SVC.url}${s}`));
    await call('POST', `orgs/${ORG}/patterns/${PATTERN}`, user, {
      label: 'pat',
      public: false,
      services: [
        {
          serviceUrl: SVC.url,
          serviceOrgid: ORG,
          serviceArch: SVC.arch,
          serviceVersions: [{ version: SVC.version }],
        },
      ],
      userInput: [
        {
          serviceOrgid: ORG,
          serviceUrl: SVC.url,
          serviceArch: '',
          serviceVersionRange: '[0.0.0,INFINITY)',
          inputs: [{ name: 'VERBOSE', value: true }],
        },
      ],
    });
    await call(
      'PUT',
      `orgs/${ORG}/agbots/drv-node-a1`,
      user,
      { token: 'abc123', name: 'agbot', publicKey: 'ABC' },
      [403],
    );
    // Registration, as the driver makes a node's calls.
    await call('GET', 'admin/version', node);
    await call('PUT', `orgs/${ORG}/nodes/${NODE}`, user, {
      token: node.secret,
      name: 'pi',
      pattern: `${ORG}/${PATTERN}`,
      arch: SVC.arch,
      publicKey: 'ABC',
    });
    await call('GET', `orgs/${ORG}/nodes/${NODE}`, node);
    await call('GET', `orgs/${ORG}`, node);
    await call('GET', `orgs/${ORG}/patterns/${PATTERN}`, node, undefined, [404]);
    await call('PATCH', `orgs/${ORG}/nodes/${NODE}`, node, {
      registeredServices: [
        {
          url: `${ORG}/${SVC.url}`,
          numAgreements: 1,
          policy: '{blob}',
          properties: [
            { name: 'arch', value: SVC.arch, propType: 'string', op: 'in' },
            { name: 'version', value: '1.0.0', propType: 'version', op: 'in' },
          ],
        },
      ],
    });
    await call('GET', `orgs/${ORG}/services`, node);
    await call('PUT', `orgs/${ORG}/nodes/${NODE}/policy`, node, {
      properties: [{ name: 'purpose', value: 'testing', type: 'string' }],
      constraints: ['a == b'],
    });
    // One heartbeat round, with the service and version checks.
    await call('GET', `orgs/${ORG}/nodes/${NODE}`, node);
    await call('GET', `orgs/${ORG}/nodes/${NODE}/msgs`, node, undefined, [404]);
    await call('POST', `orgs/${ORG}/nodes/${NODE}/heartbeat`, node);
    await call('GET', `orgs/${ORG}/nodes/${NODE}/policy`, node);
    await call('GET', `orgs/${ORG}/services`, node, undefined, [404]);
    await call('GET', 'admin/version', node);
    await call('PUT', `orgs/${ORG}/nodes/${NODE}/agreements/drv-node-agr1`, node, {
      services: [],
      agreementService: { orgid: ORG, pattern: `${ORG}/${PATTERN}`, url: `${ORG}/${SVC.url}` },
      state: 'negotiating',
    });
    await call('PUT', `orgs/${ORG}/nodes/${NODE}/status`, node, {
      connectivity: { 'something.network': true },
      services: [],
    });
    expect(refused).toEqual([]);
  });

  it("agbot.go: an agbot serving its org's patterns and IBM's, messages, then one agreement check", async () => {
    const { call, refused } = await driverStart();
    await call('PUT', `orgs/${ORG}/agbots/${AGBOT}`, user, {
      token: agbot.secret,
      name: 'agbot',
      publicKey: 'ABC',
    });
    await call('POST', `orgs/${ORG}/agbots/${AGBOT}/patterns`, user, {
      patternOrgid: ORG,
      pattern: '*',
      nodeOrgid: ORG,
    });
    // The 6th call: IBM's (public) patterns for its own org's nodes.
    await call('POST', `orgs/${ORG}/agbots/${AGBOT}/patterns`, user, {
      patternOrgid: 'IBM',
      pattern: '*',
      nodeOrgid: ORG,
    });
    await call('PUT', `orgs/${ORG}/nodes/${NODE}`, user, {
      token: node.secret,
      name: 'pi',
      pattern: '',
      arch: SVC.arch,
      publicKey: 'ABC',
    });
    for (const _ of [1, 2])
      await call('POST', `orgs/${ORG}/agbots/${AGBOT}/msgs`, node, { message: 'hey there', ttl: 8640000 });
    // One agreement check.
    await call('GET', `orgs/${ORG}/agbots/${AGBOT}/patterns`, agbot);
    await call('GET', `orgs/${ORG}`, agbot);
    await call('GET', 'orgs/IBM', root());
    const patterns = await call('GET', `orgs/${ORG}/patterns`, agbot, undefined, [404]);
    for (const id of Object.keys(patterns.body.patterns ?? {})) {
      const pat = id.slice(id.indexOf('/') + 1);
      await call('POST', `orgs/${ORG}/patterns/${pat}/nodehealth`, agbot, { lastTime: '' }, [404]);
      await call('GET', `orgs/${ORG}/services`, agbot, undefined, [404]);
      await call('GET', `orgs/${ORG}/services/${SVC_ID}`, agbot, undefined, [404]);
      const search = await call(
        'POST',
        `orgs/${ORG}/patterns/${pat}/search`,
        agbot,
        { serviceUrl: `${ORG}/${SVC.url}`, secondsStale: 0, startIndex: 0, numEntries: 0 },
        [404, 400],
      );
      for (const found of search.status === 201 ? search.body.nodes : []) {
        const nid = String(found.id).slice(ORG.length + 1);
        await call('GET', `orgs/${ORG}/nodes/${nid}`, agbot, undefined, [404]);
        await call('POST', `orgs/${ORG}/nodes/${nid}/msgs`, agbot, { message: 'hey there', ttl: 5 }, [404]);
      }
    }
    await call('GET', `orgs/${ORG}/agbots/${AGBOT}/msgs`, agbot);
    await call('POST', `orgs/${ORG}/agbots/${AGBOT}/heartbeat`, agbot);
    await call('GET', `orgs/${ORG}/agbots/${AGBOT}`, agbot);
    await call('GET', 'admin/version', agbot);
    // Clean-up, as the driver ends.
    await call('DELETE', `orgs/${ORG}/agbots/${AGBOT}`, user);
    await call('DELETE', `orgs/${ORG}/nodes/${NODE}`, user);
    expect(refused).toEqual([]);
  });

  it('a served pattern or policy still to come is accepted at upstream`s /patterns and /businesspols, as 2.154.0 does', async () => {
    await deletePerfOrg();
    const { call, refused } = driver();
    await call('POST', `orgs/${ORG}`, root(), { label: 'perf test org', description: 'blah blah' });
    await call('POST', `orgs/${ORG}/users/${EMAIL}`, root(), {
      password: user.secret,
      admin: false,
      email: EMAIL,
    });
    await call('PUT', `orgs/${ORG}/agbots/${AGBOT}`, user, {
      token: agbot.secret,
      name: 'agbot',
      publicKey: 'ABC',
    });
    await call('POST', `orgs/${ORG}/agbots/${AGBOT}/patterns`, user, { patternOrgid: ORG, pattern: 'later' });
    await call('POST', `orgs/${ORG}/agbots/${AGBOT}/businesspols`, user, {
      businessPolOrgid: ORG,
      businessPol: 'later',
    });
    expect(refused).toEqual([]);
    const served = await server.http('GET', `/v1/orgs/${ORG}/agbots/${AGBOT}/patterns`, { auth: agbot });
    expect(Object.keys(served.body.patterns)).toEqual([`${ORG}_later`]);
  });
});

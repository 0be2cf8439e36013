import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { pollExchange } from '../sync/poll.ts';
import { pushPending } from '../sync/write-through.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
  NODE,
  nodeKey,
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
  type tempDir,
} from '../test-support/harness.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

const inject = (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: unknown) =>
  agent.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
const exchangeServices = () => fake.nodes.get(nodeKey)?.registeredServices;
const registered = (url: string, configState = 'active') => ({
  url,
  numAgreements: 0,
  configState,
  policy: '',
  properties: [],
  version: '',
});
const ANY = '[0.0.0,INFINITY)';

async function configure(body: Record<string, unknown>) {
  const res = await inject('POST', '/service/config', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('/service before registration', () => {
  it('answers 424 JSON everywhere', async () => {
    for (const [method, url] of [
      ['GET', '/service'],
      ['GET', '/service/config'],
      ['POST', '/service/config'],
      ['GET', '/service/configstate'],
      ['POST', '/service/configstate'],
      ['GET', '/service/policy'],
    ] as const) {
      const res = await inject(method, url, method === 'POST' ? { url: 'x' } : undefined);
      expect(res.statusCode, url).toBe(424);
      expect(res.json().input).toBe('node');
    }
  });
});

describe('/service/config', () => {
  it('shows the final shapes, empty, once registered', async () => {
    await registerNode(agent, fake);
    expect((await inject('GET', '/service')).json()).toEqual({
      config: [],
      definitions: { active: [], archived: [] },
      instances: { active: [], archived: [] },
    });
    expect((await inject('GET', '/service/config')).json()).toEqual({ config: [] });
    expect((await inject('GET', '/service/configstate')).json()).toEqual({ configstates: [] });
    expect((await inject('GET', '/service/policy')).json()).toEqual({});
  });

  it('fills in the documented defaults and registers the service (active) in the Exchange node', async () => {
    await registerNode(agent, fake);
    expect(await configure({ url: 'my.company.com.services.gps' })).toEqual({
      url: 'my.company.com.services.gps',
      organization: NODE.org,
      name: 'my.company.com.services.gps',
      arch: 'amd64',
      versionRange: ANY,
      auto_upgrade: true,
      active_upgrade: false,
      attributes: [],
    });
    expect(exchangeServices()).toEqual([registered(`${NODE.org}/my.company.com.services.gps`)]);
    expect((await inject('GET', '/service/config')).json().config).toEqual([
      {
        sensor_url: 'my.company.com.services.gps',
        sensor_org: NODE.org,
        sensor_version: ANY,
        auto_upgrade: true,
        active_upgrade: false,
        attributes: [],
      },
    ]);
    const codes = (await inject('GET', '/eventlog?source_type=service'))
      .json()
      .map((e: { event_code: string }) => e.event_code);
    expect(codes).toEqual(['start_service_configuration', 'service_configuration_complete']);
  });

  it('accepts arch synonyms and OSGI ranges; refuses another arch, a bad range, a missing url, a duplicate', async () => {
    await registerNode(agent, fake);
    const given = await configure({
      url: 'svc1',
      organization: 'other',
      name: 'one',
      arch: 'x86_64',
      versionRange: '[1.0.0,2.0.0)',
      auto_upgrade: false,
      active_upgrade: true,
    });
    expect(given).toMatchObject({
      arch: 'amd64',
      versionRange: '[1.0.0,2.0.0)',
      auto_upgrade: false,
      active_upgrade: true,
    });
    expect((await configure({ url: 'svc2', versionRange: '1.2.3' })).versionRange).toBe('1.2.3');
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'svc3', arch: 'arm64' }, 'service.arch'],
      [{ url: 'svc3', versionRange: '[1.0.0' }, 'service.versionRange'],
      [{ url: 'svc3', versionRange: 'latest' }, 'service.versionRange'],
      [{ url: '' }, 'service.url'],
      [{ organization: 'x' }, 'service.url'],
      [{ url: 'svc1', organization: 'other' }, 'service.url'],
      [{ url: 'svc3', auto_upgrade: 'yes' }, 'service.auto_upgrade'],
      [
        { url: 'svc3', attributes: [{ type: 'UserInputAttributes', mappings: { A: {} } }] },
        'service.attributes[0].mappings.A',
      ],
    ];
    for (const [body, input] of cases) {
      const res = await inject('POST', '/service/config', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().input, JSON.stringify(body)).toBe(input);
    }
    expect((await inject('GET', '/service/config')).json().config).toHaveLength(2);
    const errors = await inject('GET', '/eventlog?event_code=error_service_configuration');
    expect(errors.json().length).toBeGreaterThan(0);
  });

  it('turns user input attributes into node user input (in the Exchange too) and keeps the others for the service', async () => {
    await registerNode(agent, fake);
    await configure({
      url: 'svc1',
      attributes: [
        { type: 'UserInputAttributes', label: 'vars', mappings: { VAR: 'x', N: 3 } },
        {
          type: 'DockerRegistryAuthAttributes',
          label: 'pull',
          mappings: { auths: [{ registry: 'r.example', token: 'TOKEN-1' }] },
        },
      ],
    });
    const entry = {
      serviceOrgid: NODE.org,
      serviceUrl: 'svc1',
      serviceArch: 'amd64',
      serviceVersionRange: ANY,
      inputs: [
        { name: 'VAR', value: 'x' },
        { name: 'N', value: 3 },
      ],
    };
    expect((await inject('GET', '/node/userinput')).json()).toEqual([entry]);
    expect(fake.nodes.get(nodeKey)?.userInput).toEqual([entry]);
    const attributes = (await inject('GET', '/attribute')).json().attributes;
    expect(attributes).toEqual([
      expect.objectContaining({
        type: 'DockerRegistryAuthAttributes',
        service_specs: [{ url: 'svc1', organization: NODE.org }],
      }),
    ]);
    const config = (await inject('GET', '/service')).json().config;
    expect(config[0].attributes).toEqual([
      {
        meta: {
          id: attributes[0].id,
          type: 'DockerRegistryAuthAttributes',
          label: 'pull',
          host_only: false,
          publishable: true,
        },
        service_specs: [{ url: 'svc1', organization: NODE.org }],
        mappings: { auths: [{ registry: 'r.example', username: 'token', token: '********' }] },
      },
      {
        meta: {
          id: '',
          type: 'UserInputAttributes',
          label: 'User input variables',
          host_only: false,
          publishable: false,
        },
        service_specs: [{ url: 'svc1', organization: NODE.org }],
        mappings: { VAR: 'x', N: 3 },
      },
    ]);
    expect(JSON.stringify(config)).not.toContain('TOKEN-1');
  });

  it('generates a service policy per configured service', async () => {
    await registerNode(agent, fake);
    await configure({ url: 'svc1', versionRange: '2.0.0' });
    expect((await inject('GET', '/service/policy')).json()).toEqual({
      [`${NODE.org}/svc1`]: {
        header: { name: `${NODE.org}/svc1`, version: '2.0' },
        apiSpec: [
          { specRef: 'svc1', organization: NODE.org, version: '2.0.0', exclusiveAccess: true, arch: 'amd64' },
        ],
        agreementProtocols: [{ name: 'Basic', protocolVersion: 1 }],
        properties: [],
      },
    });
  });
});

describe('/service/configstate', () => {
  beforeEach(async () => {
    await registerNode(agent, fake);
    await configure({ url: 'svc1' });
    await configure({ url: 'svc2' });
    await configure({ url: 'svc3', organization: 'other' });
  });

  const states = async () =>
    (await inject('GET', '/service/configstate'))
      .json()
      .configstates.map(
        (s: { org: string; url: string; configState: string }) => `${s.org}/${s.url} ${s.configState}`,
      );

  it('suspends one service (either spelling of the key), answering with configState, and the Exchange node follows', async () => {
    const res = await inject('POST', '/service/configstate', {
      url: 'svc1',
      org: NODE.org,
      configstate: 'suspended',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ url: 'svc1', org: NODE.org, configState: 'suspended' });
    expect(await states()).toEqual([
      `${NODE.org}/svc1 suspended`,
      `${NODE.org}/svc2 active`,
      'other/svc3 active',
    ]);
    expect(exchangeServices()).toEqual([
      registered(`${NODE.org}/svc1`, 'suspended'),
      registered(`${NODE.org}/svc2`),
      registered('other/svc3'),
    ]);
    await inject('POST', '/service/configstate', { url: 'svc1', org: NODE.org, configState: 'active' });
    expect(await states()).toEqual([
      `${NODE.org}/svc1 active`,
      `${NODE.org}/svc2 active`,
      'other/svc3 active',
    ]);
    const codes = (await inject('GET', '/eventlog?message=~configuration state'))
      .json()
      .map((e: { event_code: string }) => e.event_code);
    expect(codes).toEqual([
      'start_changing_service_configuration_state',
      'changing_service_configuration_state_complete',
      'start_changing_service_configuration_state',
      'changing_service_configuration_state_complete',
    ]);
  });

  it("empty url and org = every service; empty url with an org = that org's", async () => {
    await inject('POST', '/service/configstate', { url: '', org: 'other', configstate: 'suspended' });
    expect(await states()).toEqual([
      `${NODE.org}/svc1 active`,
      `${NODE.org}/svc2 active`,
      'other/svc3 suspended',
    ]);
    await inject('POST', '/service/configstate', { url: '', org: '', configstate: 'suspended' });
    expect(await states()).toEqual([
      `${NODE.org}/svc1 suspended`,
      `${NODE.org}/svc2 suspended`,
      'other/svc3 suspended',
    ]);
    expect(exchangeServices()?.map((s) => (s as { configState: string }).configState)).toEqual([
      'suspended',
      'suspended',
      'suspended',
    ]);
  });

  it('answers 400 for a bad state, a url without org, a bad version, or nothing selected', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'svc1', org: NODE.org, configstate: 'paused' }, 'configstate'],
      [{ url: 'svc1', org: NODE.org, configState: 'paused' }, 'configState'],
      [{ url: 'svc1', org: NODE.org }, 'configState'],
      [{ url: 'svc1', configstate: 'active' }, 'org'],
      [{ version: '1.0.0', configstate: 'active' }, 'org,url'],
      [{ url: 'svc1', org: NODE.org, version: 'x', configstate: 'active' }, 'version'],
      [{ url: 'nope', org: NODE.org, configstate: 'active' }, 'url, org'],
      [{ org: 'nobody', configstate: 'active' }, 'org'],
    ];
    for (const [body, input] of cases) {
      const res = await inject('POST', '/service/configstate', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().input, JSON.stringify(body)).toBe(input);
    }
    expect(await states()).toEqual([
      `${NODE.org}/svc1 active`,
      `${NODE.org}/svc2 active`,
      'other/svc3 active',
    ]);
  });

  it('keeps a change made while the Exchange is down and pushes it when it is back', async () => {
    await fake.stop();
    const res = await inject('POST', '/service/configstate', {
      url: 'svc2',
      org: NODE.org,
      configstate: 'suspended',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(agent.ctx.store.isPending('services')).toBe(true);
    await fake.restart();
    await pushPending(agent.ctx, 'services');
    expect(agent.ctx.store.isPending('services')).toBe(false);
    expect(exchangeServices()?.[1]).toEqual(registered(`${NODE.org}/svc2`, 'suspended'));
    // The pushed copy comes back on the next poll without changing anything.
    await pollExchange(agent.ctx);
    expect(await states()).toContain(`${NODE.org}/svc2 suspended`);
  });

  it('takes a state changed in the Exchange on the next poll', async () => {
    await pollExchange(agent.ctx);
    fake.patchNode(nodeKey, 'registeredServices', [
      registered(`${NODE.org}/svc1`, 'suspended'),
      registered(`${NODE.org}/svc2`),
    ]);
    await pollExchange(agent.ctx);
    expect(await states()).toEqual([`${NODE.org}/svc1 suspended`, `${NODE.org}/svc2 active`]);
  });

  it('clears the registered services, here and in the Exchange, at unregistration', async () => {
    expect((await inject('DELETE', '/node')).statusCode).toBe(204);
    expect(exchangeServices()).toEqual([]);
    await registerNode(agent, fake);
    expect((await inject('GET', '/service')).json().config).toEqual([]);
    expect((await inject('GET', '/service/configstate')).json()).toEqual({ configstates: [] });
  });
});

describe('GET /service definitions and instances', () => {
  const SECRET = 'definitely-secret-value';
  const deployment = JSON.stringify({ services: { web: { image: 'example/web:1' } } });
  const terms = (name: string) =>
    JSON.stringify({
      header: { name, version: '2.0' },
      workloads: [
        { deployment, deployment_signature: 'c2ln', workloadUrl: 'svc.web', organization: NODE.org },
      ],
      // Stored proposals hold masked values; a clear one here proves the view never reads them.
      secretDetails: [
        {
          serviceOrgid: NODE.org,
          serviceUrl: 'svc.web',
          enableNodeLevelSecrets: false,
          secrets: [{ token: SECRET }],
        },
      ],
    });
  const workload = { url: 'svc.web', org: NODE.org, version: '1.0.0', arch: 'amd64' };

  it('shows one definition and one instance per accepted agreement, archived apart, no secret', async () => {
    await registerNode(agent, fake);
    const store = agent.ctx.store;
    const { newAgreement, saveAgreement } = await import('../agreements/store.ts');
    saveAgreement(
      store,
      newAgreement('ag-run', {
        agreement_creation_time: 10,
        agreement_accepted_time: 11,
        agreement_execution_start_time: 12,
        proposal: JSON.stringify({ tsandcs: terms('a') }),
        workload_to_run: workload,
      }),
    );
    saveAgreement(
      store,
      newAgreement('ag-gone', {
        agreement_creation_time: 5,
        agreement_accepted_time: 6,
        agreement_terminated_time: 9,
        terminated_reason: 105,
        archived: true,
        proposal: JSON.stringify({ tsandcs: terms('b') }),
        workload_to_run: workload,
      }),
    );
    // Never accepted: no instance, no definition.
    saveAgreement(store, newAgreement('ag-new', { agreement_creation_time: 20, workload_to_run: workload }));

    const res = await inject('GET', '/service');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.definitions.active).toHaveLength(1);
    expect(body.definitions.active[0]).toMatchObject({
      record_id: 'ag-run',
      specRef: 'svc.web',
      organization: NODE.org,
      version: '1.0.0',
      arch: 'amd64',
      deployment,
      deployment_signature: 'c2ln',
      archived: false,
      workloads: null,
      upgrade_version_range: ANY,
    });
    expect(body.definitions.archived.map((d: { record_id: string }) => d.record_id)).toEqual(['ag-gone']);
    expect(body.instances.active).toEqual([
      expect.objectContaining({
        instance_id: 'ag-run',
        ref_url: 'svc.web',
        archived: false,
        instance_creation_time: 11,
        execution_start_time: 12,
        associated_agreements: ['ag-run'],
        microservicedef_id: 'ag-run',
        service_instance_path: [[{ url: 'svc.web', org: NODE.org, version: '1.0.0' }]],
        // No engine answers in this test: the instance is shown without containers.
        containers: [],
      }),
    ]);
    expect(body.instances.archived).toEqual([
      expect.objectContaining({ instance_id: 'ag-gone', archived: true, cleanup_start_time: 9 }),
    ]);
    expect(res.body).not.toContain(SECRET);
  });
});

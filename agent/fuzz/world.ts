import type { Agent } from '../agent.ts';
import { newAgreement, saveAgreement } from '../agreements/store.ts';
import { pollExchange } from '../sync/poll.ts';
import { makeCert, rsaKey } from '../test-support/certs.ts';
import { type FakeExchange, startFakeExchange } from '../test-support/fake-exchange.ts';
import { newAgent, tempDir } from '../test-support/harness.ts';

/**
 * A registered agent holding one of everything (user input, policy, attributes with secrets, a
 * configured service, a trusted certificate, a management status, an agreement with a secret),
 * all written through the local API where it has a route. `secrets` are the values no response
 * may ever contain.
 */
export interface World {
  agent: Agent;
  fake: FakeExchange;
  dir: ReturnType<typeof tempDir>;
  secrets: string[];
}

const ORG = 'fuzzorg';
const ID = 'fuzznode';
const SECRETS = {
  nodeToken: 'node-token-5ecret-7f3a9c',
  basicPassword: 'basic-password-5ecret-91c2',
  registryToken: 'registry-token-5ecret-5d8e',
  serviceRegistryToken: 'service-registry-token-5ecret-22aa',
  agreementSecret: 'agreement-secret-5ecret-0b1d',
};

let certificate: string | undefined;
const signingCert = () => {
  certificate ??= makeCert({ key: rsaKey(), subject: '/CN=fuzz.example/O=Fuzz' }).cert;
  return certificate;
};

export async function startWorld(): Promise<World> {
  const fake = await startFakeExchange();
  const dir = tempDir();
  const agent = await newAgent(fake.url, dir.path);
  fake.addNode(ORG, ID, SECRETS.nodeToken);
  const send = async (method: 'POST' | 'PUT', url: string, payload: unknown, expected: number) => {
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    const res = await agent.app.inject({
      method,
      url,
      payload: body,
      // As hzn sends them: JSON as application/json, the PEM of /trust as text.
      headers: { 'content-type': url.startsWith('/trust/') ? 'text/plain' : 'application/json' },
    });
    if (res.statusCode !== expected)
      throw new Error(`seeding ${method} ${url}: ${res.statusCode} ${res.body}`);
  };
  await send('POST', '/node', { id: ID, organization: ORG, token: SECRETS.nodeToken }, 201);
  await send(
    'POST',
    '/node/userinput',
    [
      {
        serviceOrgid: ORG,
        serviceUrl: 'svc',
        inputs: [
          { name: 'VAR', value: 'v' },
          { name: 'N', value: 3 },
        ],
      },
    ],
    201,
  );
  await send(
    'POST',
    '/node/policy',
    { properties: [{ name: 'purpose', value: 'fuzz' }], constraints: ['a == 1 || (b in "x", "y")'] },
    201,
  );
  const basic = { url: 'https://r.example', username: 'u', password: SECRETS.basicPassword };
  await send(
    'POST',
    '/attribute',
    { type: 'HTTPSBasicAuthAttributes', label: 'basic', mappings: basic },
    201,
  );
  const auths = [{ registry: 'registry.example', token: SECRETS.registryToken }];
  await send(
    'POST',
    '/attribute',
    { type: 'DockerRegistryAuthAttributes', label: 'pull', mappings: { auths } },
    201,
  );
  const serviceAuths = [{ registry: 'svc.example', token: SECRETS.serviceRegistryToken }];
  const attributes = [{ type: 'DockerRegistryAuthAttributes', mappings: { auths: serviceAuths } }];
  await send('POST', '/service/config', { url: 'fuzz.service', attributes }, 200);
  await send('PUT', '/trust/signer.pem', signingCert(), 200);
  fake.putManagementStatus(`${ORG}/${ID}`, 'upgrade1', { scheduledTime: '2031-01-02T00:00:00Z' });
  await pollExchange(agent.ctx);
  const proposal = JSON.stringify({ secretDetails: [{ secrets: [{ db: SECRETS.agreementSecret }] }] });
  saveAgreement(agent.ctx.store, newAgreement('agreement1', { proposal, agreement_creation_time: 1 }));
  return { agent, fake, dir, secrets: Object.values(SECRETS) };
}

export async function stopWorld({ agent, fake, dir }: World): Promise<void> {
  await agent.stop();
  await fake.close();
  dir.remove();
}

/** GET views of the agent's state (the event log aside: refused requests are logged there, as upstream does). */
const VIEWS = [
  '/node',
  '/node/configstate',
  '/node/userinput',
  '/node/policy',
  '/attribute',
  '/service',
  '/service/configstate',
  '/service/policy',
  '/agreement',
  '/trust',
  '/trust?verbose=true',
  '/nodemanagement/status',
];

export async function snapshot(agent: Agent): Promise<string> {
  const views: string[] = [];
  for (const url of VIEWS) {
    const res = await agent.app.inject({ method: 'GET', url });
    views.push(`${url} ${res.statusCode} ${res.body}`);
  }
  return views.join('\n');
}

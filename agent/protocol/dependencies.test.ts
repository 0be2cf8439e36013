/**
 * Service dependencies on the real engine (podman through the Docker Engine API): a top-level
 * service's dependency starts first, on its own network and on a link network the parent joins,
 * where the parent reaches it by its service name; a non-`multiple` instance is shared and
 * reference-counted, `multiple` gets one per agreement; the last agreement takes it away; a bad
 * signature or a dead dependency cancels (118, 108). Only this file's containers are looked at.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentString, signDeployment } from '#lib/protocol/deployment-signature';
import { REASON } from '#lib/protocol/reason-codes';
import { newAgreement, saveAgreement } from '../agreements/store.ts';
import { instancesOf, loadInstances, usersOf } from '../services/dependency-store.ts';
import { busyboxTestImage, execOutput, reachableEngine } from '../test-support/engine.ts';
import {
  type AgentUnderTest,
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
} from '../test-support/harness.ts';
import { LABELS } from '../workloads/container-spec.ts';
import { containersOf } from '../workloads/engine.ts';
import { checkDependencies } from './dependencies.ts';
import type { NodeProtocol } from './node-protocol.ts';
import type { Protocol } from './protocol.ts';
import { findAgreement } from './records.ts';
import { finishTermination, startTermination } from './terminate.ts';
import { startWorkload } from './workload.ts';

const docker = await reachableEngine();
const tag = `oedeps${process.pid}`;
const ORG = 'org1';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const { privateKey: strangerKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

describe.skipIf(!docker)('service dependencies on the engine', () => {
  const engine = docker as Docker;
  let t: AgentUnderTest;
  let p: Protocol;
  let image: string;
  const agreements: string[] = [];

  /** A signed service definition in the fake Exchange. */
  const publish = (url: string, version: string, fields: Record<string, unknown> = {}, key = privateKey) => {
    const deployment = deploymentString({
      services: { [`${tag}${url}`]: { image, command: ['sleep', '3600'] } },
    });
    t.fake.services.set(`${ORG}/${url}_${version}_amd64`, {
      url: `https://example.com/${tag}/${url}`,
      version,
      arch: 'amd64',
      sharable: 'singleton',
      deployment,
      deploymentSignature: signDeployment(deployment, key),
      userInput: [{ name: 'DEP_GREETING', type: 'string', defaultValue: 'from-default' }],
      ...fields,
    });
  };
  const depUrl = (url: string) => `https://example.com/${tag}/${url}`;

  /** An accepted, finalized agreement whose service requires `required`; returns its id. */
  const agree = (required: Array<{ url: string; versionRange: string }>): string => {
    const id = randomBytes(32).toString('hex');
    agreements.push(id);
    const deployment = JSON.stringify({ services: { [`${tag}web`]: { image, command: ['sleep', '3600'] } } });
    saveAgreement(
      t.agent.ctx.store,
      newAgreement(id, {
        name: `deps-${id.slice(0, 8)}`,
        agreement_creation_time: 1,
        agreement_accepted_time: 1,
        agreement_finalized_time: 1,
        proposal: JSON.stringify({
          tsandcs: JSON.stringify({ header: { name: id, version: '2.0' }, workloads: [{ deployment }] }),
        }),
        workload_to_run: { url: depUrl('web'), org: ORG, version: '1.0.0', arch: 'amd64' },
        service_record: {
          requiredServices: required.map((r) => ({
            org: ORG,
            url: depUrl(r.url),
            version: '',
            versionRange: r.versionRange,
            arch: 'amd64',
          })),
        },
      }),
    );
    return id;
  };

  const cancel = async (id: string) => {
    startTermination(p, id, REASON.agbotRequested, { byAgbot: true });
    await finishTermination(p, id);
  };
  const ours = async () =>
    (await engine.listContainers({ all: true })).filter((c) => c.Names.some((n) => n.includes(tag)));
  const networksOf = async (key: string) =>
    (await engine.listNetworks())
      .filter((n) => n.Name.startsWith(key))
      .map((n) => n.Name)
      .sort();

  beforeAll(async () => {
    image = await busyboxTestImage();
    t = await startAgentUnderTest();
    await registerNode(t.agent, t.fake);
    p = (t.agent.ctx.protocol as NodeProtocol).parts;
    p.trust.write('deps-test.pem', publicKey.export({ type: 'spki', format: 'pem' }) as string);
    publish('dep', '1.0.0');
    publish('dep', '1.5.0');
    publish('dep', '2.0.0');
    publish('multi', '1.0.0', { sharable: 'multiple' });
    publish('forged', '1.0.0', {}, strangerKey);
  }, 240_000);

  afterAll(async () => {
    for (const id of agreements) await cancel(id).catch(() => undefined);
    for (const c of await ours())
      await engine
        .getContainer(c.Id)
        .remove({ force: true })
        .catch(() => undefined);
    if (t) await stopAgentUnderTest(t);
  });

  it('starts the dependency first (highest version in range), wires it to the parent by name, and shares it', async () => {
    const a1 = agree([{ url: 'dep', versionRange: '[1.0.0,2.0.0)' }]);
    await startWorkload(p, a1);
    expect(findAgreement(t.agent.ctx.store, a1)?.agreement_execution_start_time).toBeGreaterThan(0);
    const [dep] = instancesOf(t.agent.ctx.store, a1);
    expect(dep).toMatchObject({ url: depUrl('dep'), version: '1.5.0', parents: [a1] });
    const key = dep?.instance_key as string;
    expect(key).toMatch(new RegExp(`^org1_example\\.com-${tag}-dep_1\\.5\\.0_[0-9a-f-]{36}$`));

    const [depContainer] = await containersOf(engine, key);
    expect(depContainer?.State).toBe('running');
    expect(depContainer?.Labels).toMatchObject({
      [LABELS.agreementId]: key,
      [LABELS.serviceName]: `${tag}dep`,
      [LABELS.infrastructure]: '',
    });
    // Dependencies get the platform variables except HZN_AGREEMENTID, and their own user input.
    const env = (await engine.getContainer(`${key}-${tag}dep`).inspect()).Config.Env;
    expect(env).toContain('DEP_GREETING=from-default');
    expect(env.some((e) => e.startsWith('HZN_AGREEMENTID='))).toBe(false);
    expect(env).toContain('HZN_ORGANIZATION=org1');

    // Its own network and the link network, which the parent joined; the parent reaches it by name.
    expect(await networksOf(key)).toEqual([key, `${key}_${a1}`].sort());
    const parent = await engine.getContainer(`${a1}-${tag}web`).inspect();
    expect(Object.keys(parent.NetworkSettings.Networks)).toContain(`${key}_${a1}`);
    expect(
      await execOutput(engine.getContainer(`${a1}-${tag}web`), ['ping', '-c', '1', '-W', '2', `${tag}dep`]),
    ).toMatch(/1 packets received/);
    const codes = t.agent.ctx.store.events(0).map((e) => e.event_code);
    expect(codes.indexOf('complete_dependent_service')).toBeLessThan(codes.lastIndexOf('container_running'));

    // A second agreement reuses the running instance (not `multiple`).
    const a2 = agree([{ url: 'dep', versionRange: '[1.5.0,1.5.0]' }]);
    await startWorkload(p, a2);
    expect(instancesOf(t.agent.ctx.store, a2).map((i) => i.instance_key)).toEqual([key]);
    expect(usersOf(t.agent.ctx.store, key)).toEqual([a1, a2].sort());
    expect((await ours()).filter((c) => c.Labels[LABELS.serviceName] === `${tag}dep`)).toHaveLength(1);
    expect(
      await execOutput(engine.getContainer(`${a2}-${tag}web`), ['ping', '-c', '1', '-W', '2', `${tag}dep`]),
    ).toMatch(/1 packets received/);

    // GET /service lists the dependency instance with both agreements.
    const view = (await t.agent.app.inject({ method: 'GET', url: '/service' })).json();
    const listed = view.instances.active.find((i: { instance_id: string }) => i.instance_id === key);
    expect(listed).toMatchObject({
      ref_url: depUrl('dep'),
      organization: ORG,
      version: '1.5.0',
      agreement_less: false,
      associated_agreements: [a1, a2].sort(),
    });
    expect(listed.containers).toHaveLength(1);

    // The first agreement ends: the instance stays for the second, its link to the first goes.
    await cancel(a1);
    expect((await containersOf(engine, key))[0]?.State).toBe('running');
    expect(await networksOf(key)).toEqual([key, `${key}_${a2}`].sort());
    expect(usersOf(t.agent.ctx.store, key)).toEqual([a2]);

    // The last one ends: containers and networks go, and the record.
    await cancel(a2);
    expect(await containersOf(engine, key)).toEqual([]);
    expect(await networksOf(key)).toEqual([]);
    expect(loadInstances(t.agent.ctx.store).some((i) => i.instance_key === key)).toBe(false);
  });

  it('gives each agreement its own instance of a `multiple` service; a dead one cancels with 108', async () => {
    const b1 = agree([{ url: 'multi', versionRange: '1.0.0' }]);
    const b2 = agree([{ url: 'multi', versionRange: '1.0.0' }]);
    await startWorkload(p, b1);
    await startWorkload(p, b2);
    const k1 = instancesOf(t.agent.ctx.store, b1)[0]?.instance_key as string;
    const k2 = instancesOf(t.agent.ctx.store, b2)[0]?.instance_key as string;
    expect(k1).toBeTruthy();
    expect(k2).toBeTruthy();
    expect(k1).not.toBe(k2);
    expect((await ours()).filter((c) => c.Labels[LABELS.serviceName] === `${tag}multi`)).toHaveLength(2);

    // The dependency of b1 disappears: b1 is cancelled with 108 and its instance goes; b2 runs on.
    await engine.getContainer(`${k1}-${tag}multi`).remove({ force: true });
    await checkDependencies(p, new Set(), (id, reason) => startTermination(p, id, reason));
    expect(findAgreement(t.agent.ctx.store, b1)?.terminated_reason).toBe(REASON.dependentServiceFailed);
    await finishTermination(p, b1);
    expect(await networksOf(k1)).toEqual([]);
    expect(findAgreement(t.agent.ctx.store, b2)?.terminated_reason).toBe(0);
    expect((await containersOf(engine, k2))[0]?.State).toBe('running');

    await cancel(b2);
    expect(await containersOf(engine, k2)).toEqual([]);
    expect(await networksOf(k2)).toEqual([]);
  });

  it('never starts a dependency whose signature no trusted key verifies: cancel 118, nothing left', async () => {
    const c1 = agree([{ url: 'forged', versionRange: '1.0.0' }]);
    await startWorkload(p, c1);
    const agreement = findAgreement(t.agent.ctx.store, c1);
    expect(agreement?.terminated_reason).toBe(REASON.dependentDowngrade);
    expect(agreement?.agreement_execution_start_time).toBe(0);
    await finishTermination(p, c1);
    expect((await ours()).filter((c) => c.Labels[LABELS.serviceName] === `${tag}forged`)).toEqual([]);
    expect(await containersOf(engine, c1)).toEqual([]);
    const error = t.agent.ctx.store.events(0).find((e) => e.event_code === 'error_start_dependent_service');
    expect(error?.message).toContain('the deployment signature is not verified by any trusted key');
  }, 60_000);

  it('cancels with 118 when a required service has no version in range', async () => {
    const d1 = agree([{ url: 'dep', versionRange: '[3.0.0,4.0.0)' }]);
    await startWorkload(p, d1);
    expect(findAgreement(t.agent.ctx.store, d1)?.terminated_reason).toBe(REASON.dependentDowngrade);
    await finishTermination(p, d1);
    expect(await containersOf(engine, d1)).toEqual([]);
  }, 60_000);
});

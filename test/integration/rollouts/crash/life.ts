/**
 * A rollout killed after each of the in-stack agbot's writes (docs/rollouts.md#crash-safety), with
 * the crash machinery of the agbot's own crash tests (agbot-in-stack/crash/scenario.ts: a cold
 * round handler per invocation on the DynamoDB store, the Exchange in-process, every write of
 * the agbot counted, its invocation dead right after the k-th). The life: two nodes on 1.0.0, a
 * plan of a canary of one then the rest, 1.1.0 published; it ends with the rollout completed and
 * both nodes on 1.1.0. Run once without a crash, then once killed after each chosen write k: every
 * life ends as the clean one, each node was proposed 1.1.0 once (one agreement id), and the second
 * node got it only after the canary ran it.
 *
 * Which writes (`crashPoints`): every write up to the canary's success, and every write from the
 * last wave's success to the end. Between them the last wave repeats the canary wave's writes for
 * the other node, one for one (the same code at the same steps; the clean life's list shows it),
 * so crashing there again would double the file's time (two lives of four seconds per write)
 * without reaching another line.
 */
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'vitest';
import { signDeployment } from '#lib/protocol/deployment-signature';
import { generateMessagingKeys } from '#lib/protocol/keys';
import { createOrg, createUser } from '#test/support/identities';
import { exchangeCall } from '../../../../agbot/test-support/scripted-node.ts';
import { crashAfter, crashed, exchangeUrl, invoke, noCrash } from '../../agbot-in-stack/crash/scenario.ts';
import { FleetNode } from '../fleet.ts';

const signer = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs1', format: 'pem' })
  .toString();
const keys = generateMessagingKeys();
const plan = {
  waves: [{ name: 'canary', nodes: 1, maxFailures: 0 }, { name: 'rest' }],
  verify: { runningSeconds: 0 },
  onAbort: 'rollback',
};
/** Invocations for the rollout at most: the clean life takes about ten, a crash a few more. */
const MAX_INVOCATIONS = 30;

export interface Outcome {
  state: string | undefined;
  counts: unknown;
  versions: (string | undefined)[];
  /** Agreement ids of 1.1.0 proposals, per node. */
  targetProposals: number[];
  /** Whether the second node first ran 1.1.0 in a later pass than the canary. */
  canaryFirst: boolean;
}

export async function lifeOfARollout(
  tag: string,
  crashAt?: number,
): Promise<{ outcome: Outcome; crash: ReturnType<typeof crashed> }> {
  noCrash();
  const org = `rc-${tag}`;
  await createOrg(org);
  const owner = await createUser(org, 'owner', { admin: true });
  const call = (method: string, path: string, body?: unknown) =>
    exchangeCall(exchangeUrl(), owner, method, path, body);
  const deployment = JSON.stringify({ services: { web: { image: 'busybox:latest' } } });
  for (const version of ['1.0.0', '1.1.0']) {
    const service = {
      label: 'web',
      url: 'web',
      version,
      arch: 'amd64',
      sharable: 'multiple',
      deployment,
      deploymentSignature: signDeployment(deployment, signer),
    };
    expect((await call('POST', `/orgs/${org}/services`, service)).status).toBe(201);
  }
  const nodes = [0, 1].map((i) => new FleetNode(exchangeUrl(), org, `n${i}`, undefined, keys));
  for (const node of nodes) await node.register(owner, { properties: [{ name: 'rc', value: tag }] });
  const policy = (versions: string[]) => ({
    label: 'web',
    service: {
      name: 'web',
      org,
      arch: 'amd64',
      serviceVersions: versions.map((version, i) => ({ version, priority: { priority_value: i + 1 } })),
    },
    constraints: [`rc == ${tag}`],
  });
  const path = `/orgs/${org}/business/policies/web`;
  expect((await call('POST', path, policy(['1.0.0']))).status).toBe(201);
  expect((await call('PUT', `${path}/rollout`, plan)).status).toBe(201);

  const fleet = { org, behaviour: () => 'good' as const };
  let pass = 0;
  const firstRan = new Map<string, number>();
  const act = async () => {
    pass += 1;
    for (const node of nodes) {
      await node.act(fleet);
      if (node.ran.includes('1.1.0') && !firstRan.has(node.id)) firstRan.set(node.id, pass);
    }
  };
  const status = async () => (await call('GET', `${path}/rollout/status`)).body?.statuses?.[0];
  const until = async (done: () => Promise<boolean>) => {
    for (let i = 0; i < MAX_INVOCATIONS && !(await done()); i++) {
      await invoke();
      await act();
    }
  };
  await until(async () => nodes.every((n) => n.running?.version === '1.0.0'));

  crashAfter(crashAt);
  expect((await call('PUT', path, policy(['1.1.0', '1.0.0']))).status).toBe(201);
  await until(
    async () => (await status())?.state === 'completed' && nodes.every((n) => n.running?.version === '1.1.0'),
  );
  const end = await status();
  const outcome: Outcome = {
    state: end?.state,
    counts: end?.counts,
    versions: nodes.map((n) => n.running?.version),
    targetProposals: nodes.map(
      (n) =>
        new Set(
          n.received
            .filter((r) => r.message.type === 'proposal' && JSON.stringify(r.message).includes('1.1.0'))
            .map((r) => r.message.agreementId),
        ).size,
    ),
    canaryFirst: (() => {
      const [a, b] = [...firstRan.values()].sort((x, y) => x - y);
      return a !== undefined && b !== undefined && a < b;
    })(),
  };
  const crash = crashed();
  // The policy goes: its agreements end, so later lives' rounds have less to govern.
  noCrash();
  expect((await call('DELETE', path)).status).toBe(204);
  await invoke();
  return { outcome, crash };
}

/** Which of the clean life's writes (1-based) are crashed after: see the file's comment. */
export function crashPoints(writes: string[]): number[] {
  const succeeded = writes.flatMap((w, i) =>
    /^store\.saveRolloutNodes\(\S+ succeeded\)$/.test(w) ? [i + 1] : [],
  );
  const canaryDone = succeeded[0];
  const lastDone = succeeded.at(-1);
  if (canaryDone === undefined || lastDone === undefined || succeeded.length !== 2)
    throw new Error(`expected two waves' successes in:\n${writes.join('\n')}`);
  const all = writes.map((_, i) => i + 1);
  return all.filter((k) => k <= canaryDone || k >= lastDone);
}

/** The clean life's outcome: the rollout completed as planned. */
export const CLEAN = {
  state: 'completed',
  counts: expect.objectContaining({ targeted: 2, succeeded: 2 }),
  versions: ['1.1.0', '1.1.0'],
  targetProposals: [1, 1],
  canaryFirst: true,
};

/**
 * Runs the clean life, then one life killed after each write of the `part`-th of `parts` equal
 * slices of `crashPoints`: every crashed life must end as the clean one. Answers how many lives
 * were crashed.
 */
export async function crashEachRolloutWrite(part: number, parts: number): Promise<number> {
  const { outcome: clean, crash } = await lifeOfARollout('clean');
  expect(clean).toEqual(CLEAN);
  const points = crashPoints(crash.writes);
  const size = Math.ceil(points.length / parts);
  const chosen = points.slice((part - 1) * size, part * size);
  const failures: string[] = [];
  for (const k of chosen) {
    const { outcome, crash: killed } = await lifeOfARollout(`k${k}`, k);
    if (killed.after === undefined) failures.push(`write ${k}: the life had fewer writes`);
    else if (JSON.stringify(outcome) !== JSON.stringify(clean))
      failures.push(`killed after write ${k} (${killed.after}): ${JSON.stringify(outcome)}`);
  }
  expect(
    failures,
    `the clean life's writes:\n${crash.writes.map((w, i) => `${i + 1}. ${w}`).join('\n')}`,
  ).toEqual([]);
  return chosen.length;
}

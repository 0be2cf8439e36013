/**
 * `hzn exchange deployment rollout …` (docs/rollouts.md#operators) against the in-process Exchange:
 * set (a bad plan is refused before any request, naming the field), plan, status, dryrun, every
 * operator action recorded in the control with its sequence number, a user's set refused, remove.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDeploymentPolicy } from '#test/support/catalog';
import { createOrg, createUser } from '#test/support/identities';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { tempDir } from '#test/support/temp-dir';
import { hzn } from '../../../cli/test-support/run-hzn.ts';

const exchange = useInProcessExchange();
const dir = tempDir('hzn-rollout-');
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};
const plan = { waves: [{ name: 'canary', nodes: 1, maxFailures: 0 }, { name: 'rest' }], onAbort: 'rollback' };
const run = (args: string[], user = 'admin:admin-pw') =>
  hzn(['exchange', 'deployment', 'rollout', ...args], {
    env: {
      HZN_EXCHANGE_URL: `${exchange.baseUrl}/v1/`,
      HZN_ORG_ID: 'cli',
      HZN_EXCHANGE_USER_AUTH: user,
    },
  });
const control = async () => JSON.parse((await run(['plan', 'web'])).stdout).control;

beforeAll(async () => {
  await createOrg('cli');
  await createUser('cli', 'admin', { admin: true });
  await createUser('cli', 'plain');
  await seedDeploymentPolicy('cli', 'web');
});

describe('hzn exchange deployment rollout', () => {
  it('refuses a bad plan before any request, naming the field', async () => {
    const bad = { waves: [{ nodes: 1, percent: 10 }, {}] };
    const result = await run(['set', 'web', '-f', file('bad.json', bad)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('waves.0: has both nodes and percent');
    const missing = await run(['plan', 'web']);
    expect(missing).toMatchObject({
      code: 8,
      stderr: expect.stringContaining('No rollout plan for policy cli/web'),
    });
  });

  it('sets the plan, shows it, its (empty) status and dry run', async () => {
    const set = await run(['set', 'web', '-f', file('plan.json', plan)]);
    expect(set).toMatchObject({ code: 0, stdout: 'Rollout plan for deployment policy cli/web set\n' });
    const shown = JSON.parse((await run(['plan', 'web'])).stdout);
    expect(shown).toMatchObject({ plan, control: { seq: 0 } });
    const status = await run(['status', 'web']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual({ policy: 'cli/web', statuses: [] });
    const dry = await run(['dryrun', 'cli/web']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ plans: [] });
  });

  it('records each operator action with the next sequence number', async () => {
    const steps: [string[], Record<string, unknown>][] = [
      [['pause', 'web', '--reason', 'look first'], { pause: { seq: 1, reason: 'look first' } }],
      [['resume', 'web'], { resume: { seq: 2 } }],
      [['promote', 'web', '1'], { promote: { seq: 3, wave: 1 } }],
      [['abort', 'web', '--action', 'rollback'], { abort: { seq: 4, action: 'rollback' } }],
      [['retry', 'web'], { retries: [{ seq: 5, failed: true }] }],
      [
        ['retry', 'web', '--node', 'cli/n1', '--node', 'cli/n2'],
        {
          retries: [
            { seq: 5, failed: true },
            { seq: 6, nodes: ['cli/n1', 'cli/n2'] },
          ],
        },
      ],
    ];
    for (const [args, expected] of steps) {
      const result = await run(args);
      expect(result.stdout, args.join(' ')).toContain(`: ${args[0]} recorded`);
      expect(await control()).toMatchObject(expected);
    }
  });

  it('refuses bad actions and other callers without writing', async () => {
    const before = await control();
    expect(await run(['abort', 'web', '--action', 'later'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--action must be pause or rollback'),
    });
    expect(await run(['promote', 'web', 'next'])).toMatchObject({ code: 1 });
    const user = await run(['pause', 'web'], 'plain:plain-pw');
    expect(user.code).not.toBe(0);
    expect(user.stderr).toContain('403');
    expect(await control()).toEqual(before);
    expect(await run(['pause', 'nope'])).toMatchObject({
      code: 8,
      stderr: expect.stringContaining('cli/nope'),
    });
  });

  it('removes the plan', async () => {
    expect(await run(['remove', 'web', '-f'])).toMatchObject({
      code: 0,
      stdout: 'Rollout plan for deployment policy cli/web removed\n',
    });
    expect((await run(['plan', 'web'])).code).toBe(8);
    expect((await run(['remove', 'web', '-f'])).code).toBe(8);
  });
});

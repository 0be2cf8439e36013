/**
 * The agent's side of the host-access rule: its own paths are protected, the host's links are
 * followed (real files), and the runner refuses before it asks the engine for anything.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DeploymentError, parseDeployment } from '#lib/protocol/deployment';
import { bindRisk } from '#lib/protocol/host-paths';
import { loadConfig } from '../ground/config.ts';
import { testWorkloadEnvironment } from '../test-support/workload-environment.ts';
import { engineAt } from './engine.ts';
import { agentHostAccess, realHostPath } from './host-guard.ts';
import { type WorkloadEvent, type WorkloadRequest, WorkloadRunner } from './runner.ts';
import { SecretFiles } from './secret-files.ts';

const root = mkdtempSync(join(tmpdir(), 'oe-host-guard-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('agentHostAccess', () => {
  const dataDir = join(root, 'agent-data');
  const options = agentHostAccess(
    loadConfig({ HZN_AGENT_DATA_DIR: dataDir, HZN_AGENT_TRUST_DIR: join(root, 'trust') }),
    `unix://${join(root, 'engine', 'api.socket')}`,
  );

  it('protects the data directory, the trust directory and the engine socket', () => {
    expect(bindRisk(`${dataDir}/secrets/ag1:/s:ro`, options)).toMatch(/^mounts a path under the host's /);
    expect(bindRisk(`${root}/trust:/t`, options)).toMatch(/^mounts the host's /);
    expect(bindRisk(`${root}/engine/api.socket:/e`, options)).toMatch(/^mounts the host's /);
    expect(bindRisk(`${root}:/everything`, options)).toMatch(/which holds/);
    expect(bindRisk(`${root}/other:/o`, options)).toBeUndefined();
  });

  it('follows a link a container could have planted in a harmless directory', () => {
    const shared = join(root, 'shared');
    mkdirSync(shared, { recursive: true });
    symlinkSync('/', join(shared, 'to-root'));
    symlinkSync('/etc', join(shared, 'to-etc'));
    expect(realHostPath(join(shared, 'to-root'))).toBe('/');
    expect(realHostPath(join(shared, 'to-etc', 'not-yet', 'there'))).toBe('/etc/not-yet/there');
    expect(bindRisk(`${shared}/to-root:/host`, options)).toBe("resolves to / and mounts the host's /");
    expect(bindRisk(`${shared}/to-etc/cron.d:/c`, options)).toBe(
      "resolves to /etc/cron.d and mounts a path under the host's /etc",
    );
    expect(bindRisk(`${shared}/plain:/p`, options)).toBeUndefined();
  });
});

describe('WorkloadRunner', () => {
  it('refuses a deployment that hands over the host before it pulls, writes or creates anything', async () => {
    // No engine answers on this socket: anything the runner asked of it would fail differently.
    const engine = engineAt(`unix://${join(root, 'no-engine.sock')}`, 2_000);
    const events: WorkloadEvent[] = [];
    const secrets = new SecretFiles(join(root, 'secrets'));
    const runner = new WorkloadRunner(engine, secrets, (e) => events.push(e));
    const request: WorkloadRequest = {
      agreementId: 'ag-host',
      deployment: parseDeployment(
        JSON.stringify({
          services: { web: { image: 'busybox' }, side: { image: 'busybox', binds: ['/:/host'] } },
        }),
      ),
      secrets: { token: { key: 'k', value: 'v' } },
      environment: testWorkloadEnvironment('ag-host'),
      nodeMemoryMb: 128,
      allowPrivileged: false,
    };
    await expect(runner.start(request)).rejects.toThrow(DeploymentError);
    expect(events).toEqual([
      {
        kind: 'error_start_container',
        agreementId: 'ag-host',
        reason: 'container side: binds "/:/host" mounts the host\'s /, which the node policy does not allow',
      },
    ]);
    expect(secrets.names('ag-host')).toEqual([]);
  });
});

import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INSTALLER, type Ran, run } from './device-kit.ts';

/**
 * What an agent upgrade on a device needs around it (test/e2e/nmp-upgrade.test.ts and `npm run
 * bench:nmp-upgrade`): more agent versions, the publisher's keys, publishing, and the installer as
 * a device runs it. No vitest here: the benchmark imports it too.
 */

/** A second build of the same source that reports `version` (`npm run build:bin -- --version`). */
export async function buildVersion(version: string, out: string): Promise<void> {
  const built = await run('npm', ['run', '--silent', 'build:bin', '--', '--version', version, '--out', out], {
    timeoutMs: 600_000,
  });
  if (built.status !== 0) throw new Error(`build:bin --version ${version}:\n${built.output}`);
}

/** A kit whose executables exit at start (any file the manifest names and hashes runs as the agent). */
export function brokenKit(version: string, out: string): void {
  mkdirSync(out, { recursive: true });
  for (const name of ['horizon-agent-linux-x64', 'horizon-agent-linux-arm64']) {
    writeFileSync(join(out, name), '#!/bin/sh\necho "this build exits at start" >&2\nexit 3\n');
    chmodSync(join(out, name), 0o755);
  }
  copyFileSync(INSTALLER, join(out, 'agent-install.sh'));
  writeFileSync(join(out, 'VERSION'), `${version}\n`);
}

/** RSA key pairs `<dir>/<name>.key` (private, PKCS#1) and `<dir>/<name>.pem` (public). */
export function keyPairs(dir: string, names: string[]): void {
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(dir, `${name}.key`), pair.privateKey.export({ type: 'pkcs1', format: 'pem' }));
    writeFileSync(join(dir, `${name}.pem`), pair.publicKey.export({ type: 'spki', format: 'pem' }));
  }
}

/** `npm run publish-agent` of the kit in `dir`, signed with `key`, as root (IBM's agent files). */
export async function publishKit(
  exchange: string,
  rootPassword: string,
  dir: string,
  key: string,
): Promise<void> {
  const ran = await run('npm', ['run', '--silent', 'publish-agent', '--', '-k', key, '--dir', dir], {
    env: { ...process.env, HZN_EXCHANGE_URL: exchange, HZN_EXCHANGE_USER_AUTH: `root/root:${rootPassword}` },
    timeoutMs: 300_000,
  });
  if (ran.status !== 0) throw new Error(`publish-agent ${dir}:\n${ran.output}`);
}

/**
 * agent-install.sh as a device gets it (`curl -sSf <url> | sh -s -- <args>`) with `cfg` as its
 * agent-install.cfg in `deviceDir`.
 */
export async function installFromExchange(
  installerUrl: string,
  deviceDir: string,
  cfg: Record<string, string>,
  args: string[],
): Promise<Ran> {
  mkdirSync(deviceDir, { recursive: true });
  writeFileSync(
    join(deviceDir, 'agent-install.cfg'),
    Object.entries(cfg)
      .map(([key, value]) => `${key}=${value}\n`)
      .join(''),
  );
  return run('sh', ['-c', 'curl -sSf "$0" | sh -s -- "$@"', installerUrl, ...args], {
    cwd: deviceDir,
    timeoutMs: 300_000,
  });
}

/**
 * `npm run build:bin`: the node agent and `hzn` as one executable per device architecture, with
 * nothing else needed on the device (no Node, no npm), plus the installer beside them:
 *
 *   dist/bin/horizon-agent-linux-x64    dist/bin/hzn-linux-x64 → horizon-agent-linux-x64
 *   dist/bin/horizon-agent-linux-arm64  dist/bin/hzn-linux-arm64 → horizon-agent-linux-arm64
 *   dist/bin/agent-install.sh
 *
 * Node's single executable applications: the bundle (CommonJS, as Node 22 runs a SEA's main) goes
 * into a blob, which postject injects into the official Node binary of each architecture
 * (node-runtime.ts). The blob has no code cache and no snapshot, so one blob fits both
 * architectures; it must come from the same Node version as the binaries (checked below).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { type DeviceArch, NODE_VERSION, nodeRuntime } from './node-runtime.ts';

const root = resolve(import.meta.dirname, '../..');
const out = join(root, 'dist', 'bin');
const work = join(root, 'dist', 'bin-build');
const cache = join(root, 'node_modules', '.cache', 'device-node');
const SENTINEL = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const ARCHES: DeviceArch[] = ['x64', 'arm64'];

if (process.versions.node !== NODE_VERSION) {
  console.error(
    `build:bin: this is Node ${process.versions.node}; the executables embed Node ${NODE_VERSION} and ` +
      'the blob must come from the same version: run it through npm (npm run build:bin)',
  );
  process.exit(1);
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
mkdirSync(out, { recursive: true });

const bundle = join(work, 'horizon-agent.cjs');
await build({
  entryPoints: [join(root, 'scripts', 'device', 'executable-entry.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  minify: true,
  legalComments: 'none',
  // dockerode's ssh2 tries its optional native addons and falls back to JavaScript without them.
  external: ['*.node'],
  logLevel: 'warning',
});

const blob = join(work, 'horizon-agent.blob');
const seaConfig = join(work, 'sea-config.json');
writeFileSync(
  seaConfig,
  JSON.stringify({
    main: bundle,
    output: blob,
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache: false,
    // `--node-options=<flags>` on the command line sets V8 options: the agent relaunches itself
    // with its memory flags that way (agent/relaunch.ts).
    execArgvExtension: 'cli',
  }),
);
execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: 'ignore' });
const sizes = [`blob (the bundled agent and hzn)  ${megabytes(statSync(blob).size)}`];

const postject = join(root, 'node_modules', 'postject', 'dist', 'cli.js');
for (const arch of ARCHES) {
  const target = join(out, `horizon-agent-linux-${arch}`);
  rmSync(target, { force: true });
  copyFileSync(nodeRuntime(arch, cache), target);
  chmodSync(target, 0o755);
  execFileSync(process.execPath, [postject, target, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SENTINEL], {
    stdio: 'ignore',
  });
  const link = join(out, `hzn-linux-${arch}`);
  rmSync(link, { force: true });
  symlinkSync(`horizon-agent-linux-${arch}`, link);
  sizes.push(`${target.slice(root.length + 1)}  ${megabytes(statSync(target).size)}`);
}
// The installer's one copy is in lib/device/, where the Exchange's functions may bundle it (they serve it too).
copyFileSync(join(root, 'lib', 'device', 'agent-install.sh'), join(out, 'agent-install.sh'));
chmodSync(join(out, 'agent-install.sh'), 0o755);
rmSync(work, { recursive: true });

console.log(sizes.join('\n'));
console.log('hzn-linux-<arch> is a link to horizon-agent-linux-<arch> (the name chooses the program)');

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * `npm run build:bin`: the node agent and `hzn` as one executable per device architecture, with
 * nothing else needed on the device (no Node, no npm), plus the installer beside them:
 *
 *   dist/bin/horizon-agent-linux-x64    dist/bin/hzn-linux-x64 → horizon-agent-linux-x64
 *   dist/bin/horizon-agent-linux-arm64  dist/bin/hzn-linux-arm64 → horizon-agent-linux-arm64
 *   dist/bin/agent-install.sh
 *   dist/bin/VERSION                    the agents' version (what `npm run publish-agent` publishes)
 *
 * `-- --version <v>` builds an agent that reports `v` (default: agent/ground/version.ts's), and
 * `-- --out <dir>` writes the kit elsewhere (tests build a second version beside the first).
 *
 * Node's single executable applications: the bundle (CommonJS, as Node 22 runs a SEA's main) goes
 * into a blob, which postject injects into the official Node binary of each architecture
 * (node-runtime.ts). The blob has no code cache and no snapshot, so one blob fits both
 * architectures; it must come from the same Node version as the binaries (checked below).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { BUILD_VERSION } from '../../lib/build-version.ts';
import { isValidVersion } from '../../lib/catalog/version-range.ts';
import { type DeviceArch, NODE_VERSION, nodeRuntime } from './node-runtime.ts';

const root = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    version: { type: 'string', default: BUILD_VERSION },
    out: { type: 'string', default: join(root, 'dist', 'bin') },
  },
});
if (!isValidVersion(values.version)) {
  console.error(`build:bin: --version ${values.version} is not a version such as 1.2.3`);
  process.exit(2);
}
const out = resolve(values.out);
const work = `${out}-build`;
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
  define: { HORIZON_AGENT_BUILD_VERSION: JSON.stringify(values.version) },
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
  sizes.push(`${relative(process.cwd(), target)}  ${megabytes(statSync(target).size)}`);
}
// The installer's one copy is in lib/device/, where the Exchange's functions may bundle it (they serve it too).
copyFileSync(join(root, 'lib', 'device', 'agent-install.sh'), join(out, 'agent-install.sh'));
chmodSync(join(out, 'agent-install.sh'), 0o755);
writeFileSync(join(out, 'VERSION'), `${values.version}\n`);
rmSync(work, { recursive: true });

console.log(`agent ${values.version}`);
console.log(sizes.join('\n'));
console.log('hzn-linux-<arch> is a link to horizon-agent-linux-<arch> (the name chooses the program)');

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

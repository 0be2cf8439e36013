import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The official Node binary for each device architecture, from the npm registry's
 * `node-linux-<arch>` packages (the same builds nodejs.org ships), pinned by version and
 * integrity. They cannot be devDependencies: npm refuses a package built for another CPU
 * (`npm ci` fails with EBADPLATFORM), so `npm pack` fetches them (through npm's cache) on first use.
 * The version is the one the project pins (`node` devDependency, `.nvmrc`): the blob injected into
 * the binary must come from the same Node version (build-executables.ts checks it).
 */
export const NODE_VERSION = '22.23.3';

export type DeviceArch = 'x64' | 'arm64';

const INTEGRITY: Record<DeviceArch, string> = {
  x64: 'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==',
  arm64: 'sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==',
};

/**
 * The path of the Node binary for `arch`, stripped of its debug symbols (125 MB → 107 MB; a
 * stripped binary takes the blob as well), kept in `cacheDir` for the next build.
 */
export function nodeRuntime(arch: DeviceArch, cacheDir: string): string {
  const binary = join(cacheDir, `node-v${NODE_VERSION}-linux-${arch}`);
  if (existsSync(binary)) return binary;
  mkdirSync(cacheDir, { recursive: true });
  const spec = `node-linux-${arch}@${NODE_VERSION}`;
  const packed = JSON.parse(
    execFileSync('npm', ['pack', spec, '--json', '--pack-destination', cacheDir], { encoding: 'utf8' }),
  ) as { filename: string }[];
  const tarball = join(cacheDir, packed[0]?.filename ?? '');
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (integrity !== INTEGRITY[arch]) {
    rmSync(tarball);
    throw new Error(`${spec}: integrity ${integrity} is not the pinned ${INTEGRITY[arch]}`);
  }
  const unpacked = join(cacheDir, `unpack-${arch}`);
  mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked, 'package/bin/node']);
  const node = join(unpacked, 'package', 'bin', 'node');
  execFileSync(stripTool(), [node]);
  chmodSync(node, 0o755);
  renameSync(node, binary);
  rmSync(unpacked, { recursive: true });
  rmSync(tarball);
  return binary;
}

/** llvm-strip reads every architecture; GNU strip only the host's (Debian: `llvm` or `binutils-aarch64-linux-gnu`). */
function stripTool(): string {
  for (const tool of ['llvm-strip', 'llvm-strip-14', 'llvm-strip-15', 'llvm-strip-16']) {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
      return tool;
    } catch {}
  }
  throw new Error('build:bin needs llvm-strip (sudo apt-get install -y llvm) to strip the Node binaries');
}

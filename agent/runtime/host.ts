import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import type { Store } from '../store/store.ts';

/** What the node policy's read-only `platform.*` properties report about this machine. */
export interface HostFacts {
  arch: string;
  cpu: number;
  memoryMb: number;
  hardwareId: string;
}

/** Node's `process.arch` spelled the way Open Horizon (Go's GOARCH) spells it. */
export function goArch(arch: string = process.arch): string {
  const names = new Map([
    ['x64', 'amd64'],
    ['ia32', '386'],
    ['ppc64', 'ppc64le'],
  ]);
  return names.get(arch) ?? arch;
}

/**
 * Measured once at start. The hardware id is the CPU serial when the board has one (Raspberry Pi
 * and friends), else a random id kept in the store so it stays the same across restarts.
 */
export function detectHost(store: Store): HostFacts {
  return {
    arch: goArch(),
    cpu: availableParallelism(),
    memoryMb: Math.floor(totalmem() / (1024 * 1024)),
    hardwareId: cpuSerial() ?? storedHardwareId(store),
  };
}

function cpuSerial(): string | undefined {
  try {
    const match = /^Serial\s*:\s*(\S+)/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return match?.[1];
  } catch {
    return undefined;
  }
}

function storedHardwareId(store: Store): string {
  const known = store.get<string>('host.hardwareId');
  if (known) return known;
  const fresh = randomBytes(20).toString('hex');
  store.set('host.hardwareId', fresh);
  return fresh;
}

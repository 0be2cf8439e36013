import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { TestProject } from 'vitest/node';
import { engineSocketPath } from '../../../agent/workloads/engine.ts';
import { buildKit, buildOncePerRun } from './device-kit.ts';
import { buildVersion } from './upgrade-device.ts';

/**
 * The run's device kits, started by the e2e project's global setup (functions-build.ts) in the
 * background while it builds the functions, when the run has a file that installs them: the kit
 * in dist/bin (`npm run build:bin`) and nmp-upgrade.test.ts's version B (a second build that
 * reports VERSION_B), in a fresh folder removed when the run ends. Each is built under its lock
 * (buildOncePerRun), taken before the setup returns: a file that needs a kit waits for that build,
 * and builds it itself if the setup did not start one (a file missing from KIT_FILES only loses
 * time). A run without such a file, or without a container engine's socket (those files skip),
 * builds none: each `build:bin` takes 15 s on an idle machine.
 */
export const VERSION_B = '0.2.0';

/** The file that upgrades to version B, and the files that install the run's kit. */
const UPGRADE_FILE = 'test/e2e/nmp-upgrade.test.ts';
const KIT_FILES = [UPGRADE_FILE, 'test/e2e/agent-install.test.ts'];

/** Version B's kit: built once for the run into `dir` (inject('agentKitB')), whoever comes first. */
export function buildVersionB(dir: string, run: string): Promise<void> {
  return buildOncePerRun(dir, run, () => buildVersion(VERSION_B, dir));
}

/** Whether the engine's socket is there: without it, the files that install kits skip (reachableEngine). */
function engineSocketThere(): boolean {
  try {
    return existsSync(engineSocketPath());
  } catch {
    return false;
  }
}

export interface DeviceKits {
  /** Settles once the background builds end (a failed one is left to the file that needs it). */
  settled: Promise<void>;
  /** Removes version B's folder. */
  remove(): void;
}

/**
 * Starts the kits for `run` (the run's `exchangeBuildDir`) when `files` (the run's test files,
 * absolute) include one of KIT_FILES and an engine's socket is there, and provides version B's
 * folder.
 */
export function startDeviceKits(project: TestProject, run: string, files: string[]): DeviceKits {
  const folder = mkdtempSync(join(tmpdir(), 'e2e-agent-kits-'));
  const kitB = join(folder, VERSION_B);
  project.provide('agentKitB', kitB);
  const named = new Set(files.map((file) => relative(project.config.root, file)));
  const needed = KIT_FILES.some((file) => named.has(file)) && engineSocketThere();
  const ignore = () => undefined;
  // B after the kit: the first build of a fresh clone fetches the Node binaries both use.
  const kit = needed ? buildKit(run) : Promise.resolve();
  const versionB =
    needed && named.has(UPGRADE_FILE)
      ? buildOncePerRun(kitB, run, () => kit.then(() => buildVersion(VERSION_B, kitB)))
      : Promise.resolve();
  return {
    settled: Promise.all([kit.catch(ignore), versionB.catch(ignore)]).then(ignore),
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Version B's kit for nmp-upgrade.test.ts (absolute): wait for it with buildVersionB. */
    agentKitB: string;
  }
}

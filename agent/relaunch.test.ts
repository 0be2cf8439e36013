import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NODE_FLAGS, missingFlags, relaunchArgs, wantedFlags } from './relaunch.ts';

describe('missingFlags', () => {
  it('names the flags the process was not started with, by flag name', () => {
    expect(missingFlags([], DEFAULT_NODE_FLAGS)).toEqual(DEFAULT_NODE_FLAGS);
    // An operator's own value of a flag is kept.
    expect(missingFlags(['--max-semi-space-size=4'], DEFAULT_NODE_FLAGS)).toEqual(['--max-opt=1']);
    expect(
      missingFlags(['--import', 'x', '--max_opt=3', '--max-semi-space-size=1'], DEFAULT_NODE_FLAGS),
    ).toEqual([]);
  });

  it('takes HZN_AGENT_NODE_FLAGS instead of the defaults, empty meaning none', () => {
    expect(wantedFlags({})).toEqual(DEFAULT_NODE_FLAGS);
    expect(wantedFlags({ HZN_AGENT_NODE_FLAGS: ' --max-opt=2  --stack-size=500 ' })).toEqual([
      '--max-opt=2',
      '--stack-size=500',
    ]);
    expect(wantedFlags({ HZN_AGENT_NODE_FLAGS: '' })).toEqual([]);
  });
});

describe('relaunchArgs', () => {
  it('as node <script>: the flags before the script; as the single executable: --node-options', () => {
    const node = relaunchArgs(['--max-opt=1'], false);
    expect(node.slice(-process.argv.length + 1)).toEqual(process.argv.slice(1));
    expect(node).toContain('--max-opt=1');
    const sea = relaunchArgs(['--max-semi-space-size=1', '--max-opt=1'], true);
    expect(sea[1]).toBe(
      `--node-options=${[...process.execArgv, '--max-semi-space-size=1', '--max-opt=1'].join(' ')}`,
    );
    expect(sea.slice(2)).toEqual(process.argv.slice(2));
  });
});

/** Runs the probe under Node (TypeScript through tsx's loader) and reads what it printed. */
function probe(env: Record<string, string> = {}) {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'agent/test-support/relaunch-probe.ts', 'a b'],
    {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    },
  );
  expect(child.status, child.stderr).toBe(0);
  const lines = child.stdout.trim().split('\n');
  expect(lines).toHaveLength(1); // the first process printed nothing: it was replaced
  return {
    childPid: child.pid,
    ...(JSON.parse(lines[0] ?? '') as { pid: number; execArgv: string[]; args: string[]; young: number }),
  };
}

describe('relaunchWithFlags', () => {
  it('replaces the process with one started with the flags (same pid, arguments, loader)', () => {
    const run = probe();
    expect(run.pid).toBe(run.childPid);
    expect(run.execArgv).toEqual(expect.arrayContaining(['--import', 'tsx', ...DEFAULT_NODE_FLAGS]));
    expect(run.args).toEqual(['a b']);
    // V8 took the flag: a young generation of at most 2 × 1 MB semi-spaces.
    expect(run.young).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  it('keeps a value given in NODE_OPTIONS', () => {
    const run = probe({ NODE_OPTIONS: '--max-semi-space-size=4' });
    expect(run.execArgv).toEqual(['--import', 'tsx', '--max-opt=1']);
    expect(run.young).toBeGreaterThan(2 * 1024 * 1024);
  });

  it('runs as started when no flags are wanted', () => {
    const run = probe({ HZN_AGENT_NODE_FLAGS: '' });
    expect(run.execArgv).toEqual(['--import', 'tsx']);
    expect(run.young).toBeGreaterThan(2 * 1024 * 1024);
  });
});

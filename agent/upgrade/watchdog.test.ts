import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWatchdog } from './watchdog.ts';

/**
 * The upgrade watchdog with real processes and files: a stand-in for the agent's process (the
 * new build running in it), a journal, the executable and the previous one kept beside it.
 */
let dir: string;
let executable: string;
let journal: string;
const started = () => join(dir, 'started');
const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve),
  );

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'watchdog-'));
  executable = join(dir, 'horizon-agent');
  journal = join(dir, 'upgrade-journal.json');
  // The new build exits at once; the previous one records how it was started.
  writeFileSync(executable, '#!/bin/sh\nexit 3\n');
  writeFileSync(`${executable}.previous`, `#!/bin/sh\necho "previous $*" > "${started()}"\n`);
  chmodSync(executable, 0o755);
  chmodSync(`${executable}.previous`, 0o755);
  writeFileSync(journal, '{}');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The agent's process after its execve into the new build: it lives until `stop` is written. */
function agentProcess(): ChildProcess {
  const stop = join(dir, 'stop');
  return spawn('/bin/sh', ['-c', `while [ ! -e "${stop}" ]; do sleep 0.1; done; exit 3`], {
    stdio: 'ignore',
  });
}
const die = () => writeFileSync(join(dir, 'stop'), '');
/** The watchdog over `agent`, as the agent starts it before its execve. */
const pidFile = () => join(dir, 'agent.pid');
const watch = (agent: ChildProcess, args: string[] = []) =>
  startWatchdog({
    pid: agent.pid as number,
    journal,
    executable,
    pidFile: pidFile(),
    args,
    env: process.env,
  });

describe('the upgrade watchdog', () => {
  it('puts the previous executable back and starts it with the same arguments when the agent dies with its journal open', async () => {
    const agent = agentProcess();
    writeFileSync(pidFile(), `${agent.pid}\n`);
    const watchdog = watch(agent, ['--config', 'x']);
    die();
    await exited(agent);
    expect(await exited(watchdog)).toBe(0);
    expect(readFileSync(started(), 'utf8')).toBe('previous --config x\n');
    // The previous agent runs in the watchdog's process: the installer's pid file names it.
    expect(readFileSync(pidFile(), 'utf8').trim()).toBe(String(watchdog.pid));
    expect(readFileSync(executable, 'utf8')).toContain('previous');
    expect(existsSync(`${executable}.previous`)).toBe(false);
  });

  it('sees an agent that died unreaped (a zombie, as under an init that reaps nothing) as dead', async () => {
    // The agent's parent is a process that never waits for its children.
    const agentPidFile = join(dir, 'zombie.pid');
    const parent = spawn(
      '/bin/sh',
      [
        '-c',
        `sh -c 'echo $$ > "${agentPidFile}"; while [ ! -e "${join(dir, 'stop')}" ]; do sleep 0.1; done' & exec sleep 600`,
      ],
      { stdio: 'ignore' },
    );
    try {
      await expect
        .poll(() => existsSync(agentPidFile) && readFileSync(agentPidFile, 'utf8').trim())
        .toBeTruthy();
      const pid = Number(readFileSync(agentPidFile, 'utf8'));
      const watchdog = startWatchdog({
        pid,
        journal,
        executable,
        pidFile: pidFile(),
        args: [],
        env: process.env,
      });
      die();
      expect(await exited(watchdog)).toBe(0);
      expect(readFileSync(started(), 'utf8')).toBe('previous \n');
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('leaves once the journal is settled, and does nothing when the agent stops later', async () => {
    const agent = agentProcess();
    const watchdog = watch(agent);
    rmSync(journal);
    expect(await exited(watchdog)).toBe(0);
    die();
    await exited(agent);
    expect(existsSync(started())).toBe(false);
    expect(readFileSync(executable, 'utf8')).toContain('exit 3');
  });

  it('leaves a pid file naming another process alone (an agent the installer started since)', async () => {
    const agent = agentProcess();
    writeFileSync(pidFile(), '1\n');
    const watchdog = watch(agent);
    die();
    await exited(agent);
    expect(await exited(watchdog)).toBe(0);
    expect(readFileSync(started(), 'utf8')).toBe('previous \n');
    expect(readFileSync(pidFile(), 'utf8')).toBe('1\n');
  });

  it('does nothing when there is no previous executable to go back to', async () => {
    rmSync(`${executable}.previous`);
    const agent = agentProcess();
    const watchdog = watch(agent);
    die();
    await exited(agent);
    expect(await exited(watchdog)).toBe(0);
    expect(readFileSync(executable, 'utf8')).toContain('exit 3');
  });
});

import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('the agent settings of the signal channel (docs/signals.md)', () => {
  it('listen by default and poll hourly while the channel is open', () => {
    expect(loadConfig({})).toMatchObject({ signals: true, signalledPollMs: 3_600_000 });
  });

  it('read HZN_AGENT_SIGNALS and HZN_AGENT_SIGNALLED_POLL_SECONDS', () => {
    const config = loadConfig({ HZN_AGENT_SIGNALS: 'off', HZN_AGENT_SIGNALLED_POLL_SECONDS: '600' });
    expect(config).toMatchObject({ signals: false, signalledPollMs: 600_000 });
  });

  it.each([
    [{ HZN_AGENT_SIGNALS: 'true' }, 'HZN_AGENT_SIGNALS must be on or off, not "true"'],
    [
      { HZN_AGENT_SIGNALLED_POLL_SECONDS: '0' },
      'HZN_AGENT_SIGNALLED_POLL_SECONDS must be an integer from 1 to 86400',
    ],
  ])('%o → %s', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('the container check interval (docs/agent.md)', () => {
  it('is anax`s 60 s by default and HZN_AGENT_CONTAINER_CHECK_SECONDS otherwise', () => {
    expect(loadConfig({}).containerCheckMs).toBe(60_000);
    expect(loadConfig({ HZN_AGENT_CONTAINER_CHECK_SECONDS: '3' }).containerCheckMs).toBe(3_000);
    expect(() => loadConfig({ HZN_AGENT_CONTAINER_CHECK_SECONDS: '0' })).toThrow(
      'HZN_AGENT_CONTAINER_CHECK_SECONDS must be an integer from 1 to 86400',
    );
  });
});

describe('the status report settings (docs/agent.md "Status reported to the Exchange")', () => {
  it('report by default, look every 60 s, write 1 s after an event; each can be set', () => {
    expect(loadConfig({})).toMatchObject({
      statusReport: true,
      statusCheckMs: 60_000,
      statusCoalesceMs: 1_000,
    });
    const config = loadConfig({
      HZN_AGENT_STATUS_REPORT: 'off',
      HZN_AGENT_STATUS_CHECK_SECONDS: '5',
      HZN_AGENT_STATUS_COALESCE_MS: '0',
    });
    expect(config).toMatchObject({ statusReport: false, statusCheckMs: 5_000, statusCoalesceMs: 0 });
    expect(() => loadConfig({ HZN_AGENT_STATUS_CHECK_SECONDS: '0' })).toThrow(
      'HZN_AGENT_STATUS_CHECK_SECONDS must be an integer from 1 to 86400',
    );
  });
});

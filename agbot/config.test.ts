import { describe, expect, it } from 'vitest';
import { loadAgbotConfig } from './config.ts';

const base = { HZN_AGBOT_ID: 'IBM/agbot', HZN_AGBOT_TOKEN: 't0k' };

describe('loadAgbotConfig', () => {
  it('has the documented defaults', () => {
    expect(loadAgbotConfig(base)).toEqual({
      exchangeUrl: 'http://localhost:3090/v1',
      org: 'IBM',
      id: 'agbot',
      token: 't0k',
      dataDir: '.data/agbot',
      pollIntervalMs: 10_000,
      host: '127.0.0.1',
      port: 8046,
      requestTimeoutMs: 10_000,
      logLevel: 'info',
      serveAll: false,
      signals: true,
    });
  });

  it('reads every variable', () => {
    const config = loadAgbotConfig({
      ...base,
      HZN_EXCHANGE_URL: 'https://exchange.example/v1/',
      HZN_AGBOT_DATA_DIR: '/var/agbot',
      HZN_AGBOT_POLL_SECONDS: '1',
      HZN_AGBOT_PORT: '0',
      HZN_AGBOT_SERVE_ALL: 'true',
      HZN_AGBOT_PROTOCOL_TIMEOUT_SECONDS: '30',
      HZN_AGBOT_SIGNALS: 'off',
    });
    expect(config).toMatchObject({
      exchangeUrl: 'https://exchange.example/v1',
      dataDir: '/var/agbot',
      pollIntervalMs: 1000,
      port: 0,
      serveAll: true,
      protocolTimeoutS: 30,
      signals: false,
    });
  });

  it.each([
    [{ HZN_AGBOT_TOKEN: 'x' }, 'HZN_AGBOT_ID must be <org>/<id>, not ""'],
    [{ ...base, HZN_AGBOT_ID: 'a/b/c' }, 'HZN_AGBOT_ID must be <org>/<id>, not "a/b/c"'],
    [{ ...base, HZN_AGBOT_ID: '/b' }, 'HZN_AGBOT_ID'],
    [{ HZN_AGBOT_ID: 'o/a' }, 'HZN_AGBOT_TOKEN must be set'],
    [{ ...base, HZN_AGBOT_POLL_SECONDS: '0' }, 'HZN_AGBOT_POLL_SECONDS must be a number of seconds'],
    [{ ...base, HZN_AGBOT_PORT: '70000' }, 'HZN_AGBOT_PORT must be an integer from 0 to 65535'],
    [{ ...base, HZN_EXCHANGE_URL: 'not a url' }, 'HZN_EXCHANGE_URL is not a URL'],
    [{ ...base, HZN_AGBOT_SIGNALS: 'yes' }, 'HZN_AGBOT_SIGNALS must be on or off, not "yes"'],
  ])('%o → %s', (env, message) => {
    expect(() => loadAgbotConfig(env)).toThrow(message);
  });
});

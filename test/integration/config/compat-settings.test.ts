import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { handler as reload } from '#functions/admin/reload';
import { getConfig, readConfig } from '#lib/config';
import { ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { tempDir } from '#test/support/temp-dir';

useTestTable();

const saved = {
  file: process.env.EXCHANGE_CONFIG_FILE,
  status: process.env.EXCHANGE_AGBOT_WRITE_STATUS,
};
const restore = (name: string, value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};
afterEach(() => {
  restore('EXCHANGE_CONFIG_FILE', saved.file);
  restore('EXCHANGE_AGBOT_WRITE_STATUS', saved.status);
});

const configFile = (settings: unknown): string => {
  const file = join(tempDir('exchange-config-'), 'exchange.json');
  writeFileSync(file, JSON.stringify(settings));
  return file;
};

describe('compat.agbotWriteStatus', () => {
  it('defaults to 200 and takes 201 from the file', () => {
    delete process.env.EXCHANGE_AGBOT_WRITE_STATUS;
    expect(readConfig(configFile({})).compat.agbotWriteStatus).toBe(200);
    expect(readConfig(configFile({ compat: { agbotWriteStatus: 201 } })).compat.agbotWriteStatus).toBe(201);
  });

  it('is overridden by EXCHANGE_AGBOT_WRITE_STATUS', () => {
    process.env.EXCHANGE_AGBOT_WRITE_STATUS = '201';
    expect(readConfig(configFile({ compat: { agbotWriteStatus: 200 } })).compat.agbotWriteStatus).toBe(201);
    process.env.EXCHANGE_AGBOT_WRITE_STATUS = '200';
    expect(readConfig(configFile({ compat: { agbotWriteStatus: 201 } })).compat.agbotWriteStatus).toBe(200);
  });

  it('refuses any other value, naming the setting', () => {
    delete process.env.EXCHANGE_AGBOT_WRITE_STATUS;
    for (const value of [202, 204, '201', null]) {
      expect(() => readConfig(configFile({ compat: { agbotWriteStatus: value } }))).toThrow(
        /compat\.agbotWriteStatus: must be 200 or 201/,
      );
    }
    for (const value of ['204', 'created', '201.5']) {
      process.env.EXCHANGE_AGBOT_WRITE_STATUS = value;
      expect(() => readConfig(configFile({}))).toThrow(
        /EXCHANGE_AGBOT_WRITE_STATUS \(compat\.agbotWriteStatus\)/,
      );
    }
  });

  it('reload refuses an invalid value and keeps the running settings', async () => {
    delete process.env.EXCHANGE_AGBOT_WRITE_STATUS;
    const file = configFile({ compat: { agbotWriteStatus: 201 } });
    process.env.EXCHANGE_CONFIG_FILE = file;
    expect((await invoke(reload, { auth: ROOT })).status).toBe(201);
    expect(getConfig().compat.agbotWriteStatus).toBe(201);
    writeFileSync(file, JSON.stringify({ compat: { agbotWriteStatus: 299 } }));
    const failed = await invoke(reload, { auth: ROOT });
    expect(failed.status).toBe(500);
    expect(failed.body.msg).toContain('previous settings kept');
    expect(failed.body.msg).toContain('compat.agbotWriteStatus');
    expect(getConfig().compat.agbotWriteStatus).toBe(201);
  });
});

describe('limits.maxMessageTtlSeconds', () => {
  it('defaults to 100 days', () => {
    expect(readConfig(configFile({})).limits.maxMessageTtlSeconds).toBe(8_640_000);
  });
});

import { describe, expect, it } from 'vitest';
import { describeError } from '#lib/http/describe-error';
import { requestSecrets } from '#lib/http/request-secrets';
import { log } from '#lib/log';
import { REDACTED, redactValues } from '#lib/log-redaction';
import { captureOutput } from '#test/support/capture-output';

const lines = (output: string) => output.trim().split('\n');

describe('log', () => {
  it('prints one JSON line per call, with the level, the message and the fields', async () => {
    const { output } = await captureOutput(() => log.warn('exchange slow', { worker: 'sync', failures: 2 }));
    expect(lines(output)).toHaveLength(1);
    expect(JSON.parse(output)).toMatchObject({
      level: 'WARN',
      message: 'exchange slow',
      service: 'open-exchange',
      worker: 'sync',
      failures: 2,
    });
  });

  it('prints secret-keyed values, headers, bodies and events as [redacted], at any depth', async () => {
    const { output } = await captureOutput(() =>
      log.info('careless caller', {
        password: 'pw-top-level',
        user: { name: 'bob', tokenHash: '$scrypt$hash', nodeToken: 'tok-nested' },
        list: [{ secret: 'in-a-list' }],
        headers: { authorization: 'Basic Ym9iOnB3' },
        body: '{"email":"bob@example.com"}',
        event: { rawPath: '/v1/orgs' },
        rootPw: 'root-pw-value',
      }),
    );
    for (const leaked of [
      'pw-top-level',
      '$scrypt$hash',
      'tok-nested',
      'in-a-list',
      'Ym9iOnB3',
      'bob@example.com',
      'root-pw-value',
    ]) {
      expect(output).not.toContain(leaked);
    }
    const line = JSON.parse(output);
    expect(line.password).toBe(REDACTED);
    expect(line.user).toEqual({ name: 'bob', tokenHash: REDACTED, nodeToken: REDACTED });
    expect(line.list).toEqual([{ secret: REDACTED }]);
    expect([line.headers, line.body, line.event]).toEqual([REDACTED, REDACTED, REDACTED]);
  });
});

describe('requestSecrets and redactValues', () => {
  const authorization = `Basic ${Buffer.from('acme/bob:s3cret-pw').toString('base64')}`;
  const event = {
    headers: { Authorization: authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'n', token: 'n0de-tok', nested: { password: 'deep-pw' } }),
  };

  it('finds the Authorization header in every form, the raw body and its secret-keyed fields', () => {
    const secrets = requestSecrets(event);
    expect(secrets).toEqual(
      expect.arrayContaining([
        authorization,
        authorization.slice(6),
        'acme/bob:s3cret-pw',
        's3cret-pw',
        event.body,
        'n0de-tok',
        'deep-pw',
      ]),
    );
    expect(secrets).not.toContain('application/json');
  });

  it('cuts every occurrence of those values out of free text, and leaves short ones alone', () => {
    const text = redactValues('login s3cret-pw failed; s3cret-pw again for n0de-tok', requestSecrets(event));
    expect(text).toBe(`login ${REDACTED} failed; ${REDACTED} again for ${REDACTED}`);
    expect(redactValues('a b c', ['a', 'bc'])).toBe('a b c');
  });
});

describe('describeError', () => {
  it('keeps name, message, stack and the cause chain, and stops a cause cycle', () => {
    const inner = new TypeError('inner', { cause: 'a string cause' });
    const outer = new Error('outer', { cause: inner });
    const looped = new Error('looped');
    looped.cause = looped;
    expect(describeError(outer, [])).toMatchObject({
      name: 'Error',
      message: 'outer',
      stack: expect.stringContaining('Error: outer'),
      cause: { name: 'TypeError', message: 'inner', cause: { name: 'string', message: 'a string cause' } },
    });
    let depth = 0;
    for (let d = describeError(looped, []); d.cause; d = d.cause) depth += 1;
    expect(depth).toBe(8);
  });

  it('prints only those fields, not the extra properties an SDK error carries', () => {
    const error = Object.assign(new Error('conditional check failed'), {
      Item: { tokenHash: 'h', owner: 'acme/bob' },
    });
    expect(Object.keys(describeError(error, []))).toEqual(['name', 'message', 'stack']);
  });
});

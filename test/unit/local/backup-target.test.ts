import { describe, expect, it } from 'vitest';
import { integerOption, targetFrom, UsageError } from '../../../scripts/local/backup-target.ts';

/** Where npm run backup and npm run restore look, and the one-line messages for a wrong command line. */
describe('the target of npm run backup and npm run restore', () => {
  const env = { EXCHANGE_DATA_DIR: '/srv/hub' };

  it("is npm start's DynamoDB Local with --local, its table and master key by default", () => {
    const target = targetFrom({ local: true }, { ...env, EXCHANGE_DYNAMODB_PORT: '8100' });
    expect(target).toMatchObject({
      table: 'exchange',
      where: 'DynamoDB Local at http://localhost:8100',
      secretsKey: 'local master key file /srv/hub/secrets-master-key',
    });
  });

  it('is AWS in the region given, with the stage key of the table named', () => {
    const target = targetFrom({ table: 'open-exchange-prod', region: 'eu-west-1' }, env);
    expect(target).toMatchObject({
      table: 'open-exchange-prod',
      where: 'AWS eu-west-1',
      secretsKey: 'KMS key alias/open-exchange-prod-secrets in eu-west-1',
    });
  });

  it.each([
    [{ local: true, endpoint: 'http://x:1' }, '--local and --endpoint name two places: give one'],
    [
      { endpoint: 'localhost:8000' },
      '--endpoint must be a URL such as http://localhost:8000, not "localhost:8000"',
    ],
    [
      { local: true, table: 'a b' },
      '--table must be a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -), not "a b"',
    ],
    [{}, 'no AWS region: pass --region (or set AWS_REGION), or --local for the DynamoDB Local of npm start'],
  ])('refuses %o, saying why', (options, message) => {
    expect(() => targetFrom(options, env)).toThrow(new UsageError(message));
  });

  it('takes counts as integers within bounds, naming the option otherwise', () => {
    const segments = integerOption('segments', 1, 1000);
    expect(segments('16')).toBe(16);
    for (const raw of ['0', '1001', '2.5', 'eight', ''])
      expect(() => segments(raw)).toThrow(
        `--segments must be an integer from 1 to 1000, not ${JSON.stringify(raw)}`,
      );
  });
});

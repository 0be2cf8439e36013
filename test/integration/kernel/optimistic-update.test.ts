import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#tables/client';
import { CONFLICT, optimisticUpdate, UPDATE_ATTEMPTS } from '#tables/kernel/optimistic-update';
import { useTestTable } from '#test/support/table';

useTestTable();

type Doc = { pk: string; sk: string; version: number; tags: string[] };
const key = (name: string) => ({ pk: `KERNEL#${name}`, sk: 'DOC' });
const noPause = async () => {};

const read = async (name: string): Promise<Doc> =>
  (
    await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: key(name), ConsistentRead: true }),
    )
  ).Item as Doc;

/** Writes `next` only while the stored document is still at the version `current` was read at. */
async function writeIfUnchanged(current: Doc, next: Doc): Promise<'written' | typeof CONFLICT> {
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: next,
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: { ':read': current.version },
      }),
    );
    return 'written';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return CONFLICT;
    throw error;
  }
}

/** Another request's write: a tag added and the version moved on. */
const otherWriter = (name: string, tag: string) =>
  documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key(name),
      UpdateExpression: 'SET version = version + :one, tags = list_append(tags, :tag)',
      ExpressionAttributeValues: { ':one': 1, ':tag': [tag] },
    }),
  );

const addTag = (tag: string) => (current: Doc) =>
  writeIfUnchanged(current, { ...current, version: current.version + 1, tags: [...current.tags, tag] });

async function createDoc(name: string): Promise<Doc> {
  const doc = { ...key(name), version: 1, tags: [] };
  await documentClient.send(new PutCommand({ TableName: tableName(), Item: doc }));
  return doc;
}

describe('optimisticUpdate', () => {
  it('writes the record as first read, without reading it again', async () => {
    const first = await createDoc('quiet');
    let rereads = 0;
    const reread = async () => {
      rereads += 1;
      return read('quiet');
    };
    expect(await optimisticUpdate(first, { write: addTag('a'), reread })).toBe('written');
    expect(rereads).toBe(0);
    expect((await read('quiet')).tags).toEqual(['a']);
  });

  it('reads again and recomputes when another write came in between, losing neither write', async () => {
    const first = await createDoc('raced');
    await otherWriter('raced', 'theirs');
    const result = await optimisticUpdate(first, {
      write: addTag('ours'),
      reread: () => read('raced'),
      sleep: noPause,
    });
    expect(result).toBe('written');
    expect(await read('raced')).toMatchObject({ version: 3, tags: ['theirs', 'ours'] });
  });

  it('answers CONFLICT after a bounded number of attempts when the record keeps changing', async () => {
    const first = await createDoc('busy');
    let writes = 0;
    const result = await optimisticUpdate(first, {
      write: async (current) => {
        writes += 1;
        await otherWriter('busy', `theirs-${writes}`);
        return addTag('ours')(current);
      },
      reread: () => read('busy'),
      sleep: noPause,
    });
    expect(result).toBe(CONFLICT);
    expect(writes).toBe(UPDATE_ATTEMPTS);
    expect((await read('busy')).tags).not.toContain('ours');
  });

  it('lets an error of the write (e.g. a refused access on the re-read record) through', async () => {
    const first = await createDoc('refused');
    await otherWriter('refused', 'theirs');
    const update = optimisticUpdate(first, {
      write: addTag('ours'),
      reread: async () => {
        throw new Error('forbidden');
      },
      sleep: noPause,
    });
    await expect(update).rejects.toThrow('forbidden');
  });
});

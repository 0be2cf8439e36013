import { HttpError } from '#lib/http/errors';
import { type DataStore, dataKey } from './data-store.ts';
import type { ObjectPath } from './schemas.ts';

/** The store did not answer as expected: the client may retry. */
const storeFailed = (what: string) =>
  new HttpError(503, 'internal_error', `the object store failed to ${what}`);

const keyOf = (p: ObjectPath) => dataKey(p.organization, p.objectType, p.objectID);

/** The size of an object's data in the store, or undefined when it has none. */
export async function storedSize(store: DataStore, path: ObjectPath): Promise<number | undefined> {
  const answer = await fetch(store.url('HEAD', keyOf(path)), { method: 'HEAD' }).catch(() => undefined);
  if (answer?.status === 404 || answer?.status === 403) return undefined;
  if (!answer?.ok) throw storeFailed('answer');
  return Number(answer.headers.get('content-length') ?? 0);
}

export async function writeData(store: DataStore, path: ObjectPath, data: Buffer): Promise<void> {
  const answer = await fetch(store.url('PUT', keyOf(path)), { method: 'PUT', body: data }).catch(
    () => undefined,
  );
  if (!answer?.ok) throw storeFailed('store the data');
}

export async function removeData(store: DataStore, path: ObjectPath): Promise<void> {
  const answer = await fetch(store.url('DELETE', keyOf(path)), { method: 'DELETE' }).catch(() => undefined);
  if (!answer?.ok && answer?.status !== 404) throw storeFailed('delete the data');
}

export const downloadUrl = (store: DataStore, path: ObjectPath): string => store.url('GET', keyOf(path));
export const uploadUrl = (store: DataStore, path: ObjectPath): string => store.url('PUT', keyOf(path));

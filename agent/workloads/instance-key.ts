import { randomUUID } from 'node:crypto';

/**
 * A dependency instance's key, upstream's form (docs/protocol.md#containers-networks-and-labels): `<org>_<url>_
 * <version>_<uuid>` with the URL's scheme dropped, every character outside [A-Za-z0-9_.-]
 * replaced by `-`, and a first character that is not alphanumeric replaced by `0`, so it is a
 * valid container and network name. It names the instance's containers, label and network.
 */
export function instanceKey(org: string, url: string, version: string, id: string = randomUUID()): string {
  const path = url.includes('://') ? (url.split('://')[1] ?? '') : url;
  const joined = org ? `${org}_${path}_${version}_${id}` : `${path}_${version}_${id}`;
  return joined.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]/, '0');
}

/** The network that links a dependency to one parent (`<dependency key>_<parent key>`). */
export const linkNetworkName = (dependencyKey: string, parentKey: string): string =>
  `${dependencyKey}_${parentKey}`;

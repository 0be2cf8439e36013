/** A leading `scheme://` (scheme characters `[A-Za-z0-9+.-]`), removed from a url to form its id. */
const SCHEME = /^[A-Za-z0-9+.-]+:\/\//;
/** Characters upstream replaces by `-` in the url part of a service id. */
const REPLACED = /[$!*,;/?@&~=%]/g;

/**
 * Upstream's service id (docs/exchange-catalog.md#service-ids-and-references): the url without its scheme, each of
 * `$ ! * , ; / ? @ & ~ = %` replaced by `-`, then `_<version>_<arch>` verbatim.
 * `https://horizon/services/rtlsdr`, `1.0.0`, `amd64` → `horizon-services-rtlsdr_1.0.0_amd64`.
 */
export function serviceId(url: string, version: string, arch: string): string {
  return `${serviceUrlPart(url)}_${version}_${arch}`;
}

/** The url part of a service id: every version and arch of one url shares `<part>_` as a prefix. */
export function serviceUrlPart(url: string): string {
  return url.replace(SCHEME, '').replace(REPLACED, '-');
}

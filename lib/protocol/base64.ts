/**
 * Base64 as upstream's Go JSON writes `[]byte`: the standard alphabet with padding. Decoding is
 * strict because Node's own decoder silently skips characters it does not know, which would let a
 * damaged field through as different bytes.
 */
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** The bytes of `text`, or undefined when it is not padded standard base64. */
export function fromBase64(text: string): Buffer | undefined {
  return STANDARD_BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
}

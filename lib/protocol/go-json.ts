/**
 * JSON as Go's encoding/json writes it: like JSON.stringify, but `<`, `>`, `&`, U+2028 and U+2029
 * inside strings are escaped as \u003c, \u003e, \u0026, \u2028 and \u2029. Parsers read both
 * forms alike; writing Go's makes our messages byte-for-byte what anax sends (tests compare bytes).
 */
const GO_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

// Outside strings JSON has none of these characters, so a plain replace only touches string content.
export const goJsonStringify = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => GO_ESCAPES[ch] as string);

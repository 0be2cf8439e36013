/**
 * Request bodies are JSON (request-guard.ts refuses any other content type before parsing). A
 * `__proto__` key is refused, as Fastify's own parser does, but with a message that says why:
 * copied by assignment it would replace an object's prototype.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  // Only a text that can spell the key (directly or with \u escapes) pays for the reviver.
  if (!text.includes('__proto__') && !text.includes('\\u')) return JSON.parse(text);
  return JSON.parse(text, (key, value) => {
    if (key === '__proto__') throw new SyntaxError('"__proto__" is not accepted as a key');
    return value;
  });
}

import { expect } from 'vitest';
import type { InvokeResult } from '#test/support/invoke';

/** Names that reach `Object.prototype` when they index a plain object. */
export const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
  'prototype',
  'CONSTRUCTOR',
  '__PROTO__',
];

/** What a stored record holds and no answer may: hash field names and the hashes themselves. */
const STORED_SECRET = /tokenHash|passwordHash|secretHash|\$scrypt\$/;

/** Upstream's 404 for an empty list: the collection's empty map (and `lastIndex: 0`). */
const isEmptyList = (body: unknown) =>
  typeof body === 'object' &&
  body !== null &&
  Object.values(body).every(
    (value) =>
      value === 0 || (typeof value === 'object' && value !== null && Object.keys(value).length === 0),
  );

/** No 5xx; a 4xx is `{code, msg}` JSON (or upstream's empty-list 404); nothing stored-only in the body. */
export function expectSafeAnswer(result: InvokeResult, what: string): void {
  expect(result.status, `${what}: ${result.text.slice(0, 300)}`).toBeLessThan(500);
  if (result.status >= 400 && !(result.status === 404 && isEmptyList(result.body))) {
    expect(typeof result.body.code, what).toBe('string');
    expect(typeof result.body.msg, what).toBe('string');
  }
  expect(result.text, what).not.toMatch(STORED_SECRET);
}

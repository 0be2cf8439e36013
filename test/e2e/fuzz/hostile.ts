import fc from 'fast-check';

/**
 * Generators of hostile input, in wire form (path segments percent-encoded, bodies as JSON text,
 * headers as sent). Everything here must be rejected by the Exchange: bodies always carry an
 * unknown field or the wrong shape, so that no generated write can succeed (see exchange.test.ts).
 */
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
] as const;

const enc = encodeURIComponent;
const KB = 1024;
const ASCII_PRINTABLE = /^[\x20-\x7e]*$/;

const prototypeName = fc.constantFrom(...PROTOTYPE_NAMES);
/** Valid text (graphemes: no lone surrogates, so it always encodes). */
const unicodeText = (maxLength: number) => fc.string({ unit: 'grapheme', minLength: 1, maxLength });
const threeKb = fc.oneof(
  fc.constantFrom('a', 'é', '💣', '%', '/', ' ').map((c) => c.repeat(3 * KB)),
  fc.string({ unit: 'grapheme-ascii', minLength: 3 * KB, maxLength: 3 * KB + 64 }),
);

/** Segments that name no record and that hapi passes on unchanged. */
const SPECIAL_SEGMENTS = ['%2F', 'a%2Fb', '%2F..%2F', '%00', 'a%00b', '%5C', '%20', '%0A', '~', '*', '%25'];
/** Dot segments: the local HTTP layer resolves them to another route, so only for reads. */
const DOT_SEGMENTS = ['..', '.', '%2e%2e', '%2E', 'a%2F..%2F..'];

/** One hostile path segment; `dots` adds segments that move the request to another route. */
export const hostileSegment = (dots: boolean): fc.Arbitrary<string> =>
  fc.oneof(
    prototypeName,
    threeKb.map(enc),
    unicodeText(40).map(enc),
    fc.constantFrom(...SPECIAL_SEGMENTS, ...(dots ? DOT_SEGMENTS : [])),
  );

/** `%a%a...b`: a backtracking LIKE matcher blows up on it against a long name of 'a's. */
const wildcardFilter = fc.integer({ min: 1, max: 40 }).map((n) => `${'%a'.repeat(n)}b`);
const numberish = fc.constantFrom('-1', '0', 'NaN', '1e309', '99999999999999999999', '0x10', '', ' ');
const STORED_FIELDS = ['tokenHash', 'passwordHash', 'secretHash', 'token', 'password', 'publicKey', 'name'];

/** A decoded query value. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  prototypeName,
  wildcardFilter,
  fc.constantFrom(...STORED_FIELDS, '%', '_', '%%', '\\', '.*', '(a+)+$', 'true', 'false'),
  numberish,
  unicodeText(30),
  threeKb,
);

/** Extra query names nobody declares (`?__proto__=...`). */
export const hostileQueryName: fc.Arbitrary<string> = fc.oneof(
  prototypeName,
  fc.constantFrom('attribute', 'x'),
);

/** Percent-escapes the query decoder must survive, sent raw. */
export const RAW_QUERY_VALUES = ['%zz', '%', '%ff', '%C3%28', '%00'];

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Authorization headers that must answer 401 (or 400/404 before authentication). */
export const hostileAuthorization: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    `Basic ${b64('no-colon-at-all')}`,
    `Basic ${b64('noslash:secret')}`,
    `Basic ${b64(':')}`,
    `Basic ${b64('/:')}`,
    `Basic ${b64('root/root:')}`,
    `Basic ${b64('root/root:wrong-password')}`,
    'Basic !!!not*base64***',
    'Basic ',
    'Basic',
    'Bearer eyJhbGciOiJub25lIn0.e30.',
    'Digest username="root/root"',
    'Negotiate YII=',
    `Basic ${b64(`${'x'.repeat(10 * KB)}/user:pw`)}`,
    `Basic ${b64(`org/${'u'.repeat(10 * KB)}:pw`)}`,
  ),
  fc
    .tuple(
      fc.oneof(prototypeName, unicodeText(20)),
      fc.oneof(prototypeName, unicodeText(20)),
      unicodeText(20),
    )
    .map(([org, id, pw]) => `Basic ${b64(`${org}/${id}:${pw}`)}`),
  fc.string({ unit: 'grapheme-ascii', maxLength: 64 }).filter((s) => ASCII_PRINTABLE.test(s)),
);

/** Field names every body schema knows somewhere, so wrong types reach real fields. */
const KNOWN_FIELDS = [
  'label',
  'description',
  'name',
  'token',
  'password',
  'admin',
  'hubAdmin',
  'email',
  'publicKey',
  'pattern',
  'properties',
  'service',
  'state',
  'message',
  'ttl',
  'agentSoftwareVersions',
  'agentUpgradePolicyStatus',
  'registeredServices',
  'heartbeatIntervals',
  'limits',
];
/** Present in every generated object body: no schema declares it, so strict schemas refuse it. */
export const UNKNOWN_FIELD = 'fuzzUnknownField';

const hugeString = fc.constantFrom('x', 'é').map((c) => c.repeat(100 * KB));
const bodyValue = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: prototypeName },
);
const bodyKey = fc.oneof(fc.constantFrom(...KNOWN_FIELDS), prototypeName, unicodeText(12));

/** JSON text of an object from entries (keys may repeat; `__proto__` stays a plain key). */
const objectText = (entries: [string, unknown][]) =>
  `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`;

const DEPTH = 10_000;

/** A body that no endpoint may accept, as JSON text (or not JSON at all). */
export const hostileBody: fc.Arbitrary<string> = fc.oneof(
  // wrong top-level types
  fc.constantFrom('[]', '123', '"text"', 'null', 'true', '[{"label":"x"}]'),
  // nesting depth 10,000
  fc.constantFrom(
    `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`,
    `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`,
    `{"label":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)},"${UNKNOWN_FIELD}":1}`,
  ),
  // duplicate keys, unknown fields, wrong types, 100 KB strings
  fc
    .array(fc.tuple(bodyKey, bodyValue), { maxLength: 6 })
    .chain((entries) =>
      fc
        .tuple(fc.constantFrom(...KNOWN_FIELDS), bodyValue, bodyValue)
        .map(([key, a, b]): [string, unknown][] => [[key, a], ...entries, [key, b], [UNKNOWN_FIELD, true]]),
    )
    .map(objectText),
  // not JSON
  fc.constantFrom('{"label": "x",', 'label=x', '', '\u0000', '{"a":1}{"b":2}', "{'a':1}"),
);

/** Content types that still reach our handler on the local stack. */
export const bodyContentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      'text/plain',
      'application/json; charset=utf-16',
      'application/merge-patch+json',
      'application/x-www-form-urlencoded',
    ),
  },
);

import fc from 'fast-check';
import { PROTOTYPE_NAMES } from '../test-support/hostile.ts';

/** One generated request (URL already in wire form: percent-encoded or deliberately not). */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const KB3 = 'x'.repeat(3 * 1024);
const KB100 = 'y'.repeat(100 * 1024);
const DEPTH = 10_000;
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Any string, percent-encoded (a lone surrogate cannot be: it is dropped). */
const encoded = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, ''));
  }
};

/** Path segments: prototype names, traversal, encoded slashes, NUL, bad encodings, 3 KB, unicode. */
const pathValue = fc.oneof(
  fc.constantFrom(
    ...PROTOTYPE_NAMES,
    ...PROTOTYPE_NAMES.map((name) => `${name}.pem`),
    '..',
    '.',
    '%2F',
    'a%2Fb',
    '%2e%2e',
    '..%2F..%2Fetc%2Fpasswd',
    '%2E%2E%2Fx.pem',
    '%00',
    'a%00.pem',
    '%ZZ',
    '%',
    '%C0%AF',
    '%FF%FE',
    '%F0%9F%98%80.pem',
    '%E2%80%AE.pem',
    KB3,
    `${KB3}.pem`,
    encoded('é'.repeat(1536)),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }).map(encoded),
  fc.string({ maxLength: 20 }).map((s) => `${encoded(s)}.pem`),
);

const QUERY_KEYS = [
  ...PROTOTYPE_NAMES,
  'block',
  'removeNode',
  'deepClean',
  'ready',
  'type',
  'verbose',
  'record_id',
  'timestamp',
  'severity',
  'message',
  'event_code',
  'source_type',
  'time_since',
  'event_source.node_id',
  'a.__proto__.b',
  'a..b',
  '.',
  '',
];
const queryValue = fc.oneof(
  fc.constantFrom(
    ...PROTOTYPE_NAMES,
    'true',
    'false',
    '',
    '~',
    '>',
    '<',
    '>1e999',
    '<-0',
    'NaN',
    'agentUpgrade',
    `~${'a'.repeat(1024)}`,
    `~${'a'.repeat(1025)}`,
    KB3,
    '\u0000',
    '\uFEFF\u202E',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ maxLength: 10 }).map((s) => `~${s}`),
);
/** A query string, either properly encoded or with raw, possibly broken escapes. */
export const query = fc.oneof(
  fc.constant(''),
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 8 })), queryValue), {
      maxLength: 5,
    })
    .map((pairs) => `?${pairs.map(([k, v]) => `${encoded(k)}=${encoded(v)}`).join('&')}`),
  fc.constantFrom('?%ZZ=1', '?a=%', '?%00=%00', '?=&=&', '?&&&', `?${'a=1&'.repeat(40)}`),
);

/**
 * Every field name the agent's request bodies know (any route). An always-hostile object gives
 * each of them a value no schema accepts for it, so whatever route receives it must refuse it.
 */
export const KNOWN_FIELDS = [
  'id',
  'organization',
  'pattern',
  'name',
  'nodeType',
  'token',
  'state',
  'label',
  'description',
  'properties',
  'constraints',
  'deployment',
  'management',
  'type',
  'publishable',
  'host_only',
  'service_specs',
  'mappings',
  'url',
  'arch',
  'versionRange',
  'auto_upgrade',
  'active_upgrade',
  'attributes',
  'org',
  'version',
  'configState',
  'configstate',
  'agentUpgradePolicyStatus',
  'serviceOrgid',
  'serviceUrl',
  'serviceArch',
  'serviceVersionRange',
  'inputs',
];

/** JSON text of a value no known field accepts: a number, or arrays nested at least twice. */
const wrongValue = fc.oneof(
  fc.constantFrom('0', '-1', '1e308', '-0', '123456789012345678901234567890', '0.5'),
  fc.integer({ min: 2, max: 50 }).map(deepArray),
  fc.constantFrom(deepArray(DEPTH), `[[${JSON.stringify(KB100)}]]`, '[["__proto__"]]', '[[{"__proto__":1}]]'),
);
/** JSON text of anything at all. */
const anyValue = fc.oneof(
  wrongValue,
  fc.constantFrom(
    ...PROTOTYPE_NAMES.map((n) => JSON.stringify(n)),
    '""',
    'true',
    'false',
    'null',
    '{}',
    '[]',
  ),
  fc.constantFrom(
    JSON.stringify(KB100),
    JSON.stringify(KB3),
    deepObject(DEPTH),
    '{"constructor":{"prototype":{}}}',
  ),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
);
const unknownKey = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, 'zzz', '\u0000', KB3),
  fc.string({ maxLength: 10 }),
);

/**
 * An object body that no route accepts: unknown fields and duplicate keys (any values) first,
 * then every known field with a wrong value (JSON.parse keeps the last of duplicate keys).
 */
const hostileObject = fc
  .tuple(
    fc.array(fc.tuple(fc.oneof(unknownKey, fc.constantFrom(...KNOWN_FIELDS)), anyValue), { maxLength: 4 }),
    fc.array(wrongValue, { minLength: KNOWN_FIELDS.length, maxLength: KNOWN_FIELDS.length }),
  )
  .map(([extra, wrong]) => {
    const members = [
      ...extra.map(([k, v]) => `${JSON.stringify(k)}:${v}`),
      ...KNOWN_FIELDS.map((k, i) => `${JSON.stringify(k)}:${wrong[i]}`),
    ];
    return `{${members.join(',')}}`;
  });

/** Bodies no route may accept: wrong top-level types, nesting 10,000 deep, hostile objects (alone or in a list). */
export const hostileBody = fc.oneof(
  wrongValue,
  fc.constantFrom(
    'true',
    'false',
    '"text"',
    JSON.stringify(KB100),
    deepArray(DEPTH),
    '{"a":1',
    '{"a":1}}',
    '\u0000',
    'null',
  ),
  hostileObject,
  hostileObject.map((o) => `[${o}]`),
  fc.constantFrom(`{"__proto__":${deepObject(50)}}`, '{"\\u005f_proto__":{}}', `[${deepObject(DEPTH)}]`),
);

/** Strings with hostile content where a string is expected. */
const hostileText = fc.oneof(
  fc.constantFrom(
    ...PROTOTYPE_NAMES,
    '',
    ' ',
    KB3,
    KB100,
    'x86_64',
    'amd64',
    '[1.0.0,',
    '[0.0.0,INFINITY)',
    `${'('.repeat(5000)}a == 1${')'.repeat(5000)}`,
    `a == "${'\\"'.repeat(3000)}`,
    '\u0000',
    '\uD800',
    '\u202E\uFEFF',
    'configured',
    'waiting',
    'Basic',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
const text = hostileText.map((t) => JSON.stringify(t));
const list = (item: fc.Arbitrary<string>) =>
  fc.array(item, { maxLength: 3 }).map((items) => `[${items.join(',')}]`);
const object = (fields: Record<string, fc.Arbitrary<string>>) =>
  fc
    .tuple(
      ...Object.entries(fields).map(([k, v]) => fc.option(v.map((value) => `${JSON.stringify(k)}:${value}`))),
    )
    .map((members) => `{${members.filter((m) => m !== null).join(',')}}`);
const property = object({ name: text, value: anyValue, type: text });
const section = object({ properties: list(property), constraints: list(text) });
const mappings = fc.oneof(
  fc.dictionary(hostileText, text, { maxKeys: 4 }).map((d) => JSON.stringify(d)),
  object({ auths: list(object({ registry: text, username: text, token: text })) }),
  object({ protocols: list(fc.constantFrom('{"Basic":[]}', '{"__proto__":[]}', '{"Basic":1}', '{}')) }),
  object({ url: text, username: text, password: text, tokens: anyValue, perTimeUnit: text }),
);
const attribute = object({
  type: fc.oneof(
    text,
    fc.constantFrom(
      '"UserInputAttributes"',
      '"DockerRegistryAuthAttributes"',
      '"HTTPSBasicAuthAttributes"',
      '"MeteringAttributes"',
      '"AgreementProtocolAttributes"',
    ),
  ),
  label: text,
  publishable: anyValue,
  service_specs: list(object({ url: text, organization: text })),
  mappings,
});
/**
 * Bodies shaped like the routes' own (every field optional, each with a plausible type and
 * hostile content), so that validation is passed and the logic behind it is reached.
 */
const shapedBody = fc.oneof(
  object({
    label: text,
    properties: list(property),
    constraints: list(text),
    deployment: section,
    management: section,
  }),
  attribute,
  object({ url: text, organization: text, arch: text, versionRange: text, attributes: list(attribute) }),
  object({ url: text, org: text, version: text, configState: text, configstate: text }),
  object({ id: text, organization: text, token: text, pattern: text, nodeType: text, state: text }),
  object({
    agentUpgradePolicyStatus: object({ status: text, startTime: text, endTime: text, errorMessage: text }),
  }),
  list(
    object({
      serviceOrgid: text,
      serviceUrl: text,
      serviceArch: text,
      serviceVersionRange: text,
      inputs: list(object({ name: text, value: anyValue })),
    }),
  ),
);

/** Any body at all, valid-looking ones included (a route may accept these). */
export const anyBody = fc.oneof(
  hostileBody,
  shapedBody,
  shapedBody,
  anyValue,
  fc
    .array(fc.tuple(fc.oneof(unknownKey, fc.constantFrom(...KNOWN_FIELDS)), anyValue), { maxLength: 6 })
    .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'json',
  '',
);

/** A request to one route pattern: its `:params` replaced by hostile values, a hostile query and body. */
export function requestTo(
  pattern: string,
  method: string,
  body: fc.Arbitrary<string>,
): fc.Arbitrary<FuzzRequest> {
  const params = pattern.split('/').filter((part) => part.startsWith(':')).length;
  return fc
    .tuple(fc.array(pathValue, { minLength: params, maxLength: params }), query, body, contentType)
    .map(([values, search, payload, type]) => {
      let i = 0;
      const path = pattern
        .split('/')
        .map((part) => (part.startsWith(':') ? (values[i++] as string) : part))
        .join('/');
      const headers: Record<string, string> = type ? { 'content-type': type } : {};
      const hasBody = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
      return { method, url: `${path}${search}`, headers, ...(hasBody ? { body: payload } : {}) };
    });
}

/** Names a page's DNS can make resolve to 127.0.0.1 (DNS rebinding): never loopback's own. */
const foreignHost = fc
  .oneof(
    fc.constantFrom(
      'evil.example',
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      'localtest.me',
      '0.0.0.0',
      '10.0.0.5',
    ),
    fc.domain(),
  )
  .chain((name) => fc.constantFrom(name, `${name}:8510`, `${name}:80`));

/** Origins of pages that are not this host's (`null` is a sandboxed frame or a file). */
const foreignOrigin = fc.oneof(
  fc.constantFrom('null', 'https://evil.example', 'http://localhost.evil.example:8510', 'file://', ''),
  fc.domain().map((name) => `https://${name}`),
);

/** What an HTML form posts without a preflight (text/plain: not to a route that takes text). */
const formType = (textBody: boolean) =>
  fc.constantFrom(
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=----x',
    ...(textBody ? [] : ['text/plain', 'text/plain;charset=UTF-8']),
  );

/**
 * A request a web page in a browser on the node's host could make (api/request-guard.ts): a
 * rebinding Host, a foreign Origin, or (for a write) a form's body; every one must be refused.
 */
export function webPageRequestTo(
  pattern: string,
  method: string,
  body: fc.Arbitrary<string>,
): fc.Arbitrary<FuzzRequest> {
  const hasBody = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
  const textBody = pattern.startsWith('/trust/');
  const attack = fc.oneof(
    foreignHost.map((host) => ({ host, 'content-type': 'application/json' })),
    foreignOrigin.map((origin) => ({ origin, 'content-type': 'application/json' })),
    ...(hasBody ? [formType(textBody).map((type) => ({ 'content-type': type }))] : []),
  );
  return fc.tuple(requestTo(pattern, method, body), attack).map(([req, headers]) => ({
    ...req,
    headers,
    ...(hasBody ? { body: req.body || 'a=1' } : {}),
  }));
}

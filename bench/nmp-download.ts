import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_TABLE, ROOT_PASSWORD, startBenchDynamo } from './env.ts';
import { PRICES, PRICES_AS_OF } from './fleet-prices.ts';

/**
 * `npx tsx bench/nmp-download.ts` (docs/benchmarks.md, "Agent upgrades: what a node downloads"):
 * publishes the executables `npm run build:bin` made (else two 100 MB stand-ins) to the local
 * object store through the handlers over HTTP, then lets one node of another org fetch what an
 * upgrade reads of the object store (manifest metadata and data, the file's metadata and data),
 * counting HTTP requests, DynamoDB calls and units and bytes; and prices 1,000 nodes doing that on
 * AWS at list prices. What the agent itself will add (status reports, the NMP list, the node's
 * softwareVersions) is not measured here: the agent's side is not built yet (docs/nmp.md).
 */
/** S3 Standard, us-east-1, same date as fleet-prices.ts: GET per request, transfer out per GB (first 10 TB). */
const S3 = { getRequest: 0.0004 / 1000, transferOutPerGb: 0.09 };
const NODES = 1000;
const privateKeyOf = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

const dynamo = await startBenchDynamo();
const work = mkdtempSync(join(tmpdir(), 'bench-nmp-'));
try {
  const { createTableIfMissing } = await import('#tables/create-table');
  const { tableName } = await import('#tables/client');
  const { bootstrap } = await import('#tables/bootstrap');
  const { invoke } = await import('#test/support/invoke');
  const { dynamoUsageOf } = await import('#test/support/dynamo-usage');
  const { createNode, createOrg, createUser, ROOT } = await import('#test/support/identities');
  const { startObjectStore } = await import('../scripts/local/object-store.ts');
  const { handler: getUploadUrl } = await import('#functions/objects/get-upload-url');
  const { handler: putObject } = await import('#functions/objects/put-object');
  const { handler: putData } = await import('#functions/objects/put-object-data');
  const { handler: getObject } = await import('#functions/objects/get-object');
  const { handler: getData } = await import('#functions/objects/get-object-data');
  const { MANIFEST_TYPE, signManifest } = await import('#lib/nmp/manifest');
  await createTableIfMissing(tableName(), { stream: false });
  await bootstrap();
  const store = await startObjectStore({ dir: join(work, 'store') });
  process.env.EXCHANGE_OBJECTS_URL = store.url;
  process.env.EXCHANGE_OBJECTS_SECRET = store.secret;
  const root = { user: ROOT.user, secret: ROOT_PASSWORD };
  const built = join('dist', 'bin');
  const names = ['horizon-agent-linux-x64', 'horizon-agent-linux-arm64', 'agent-install.sh'];
  const files = names.map((name) => {
    const real = join(built, name);
    if (existsSync(real)) return real;
    const standIn = join(work, name);
    writeFileSync(standIn, Buffer.alloc(name.endsWith('.sh') ? 22_000 : 100_000_000, 1));
    return standIn;
  });
  // Publishing as npm run publish-agent does (scripts/publish-agent-files.ts), through the handlers.
  const type = 'agent_software_files-9.9.9';
  const at = (objectType: string, objectID: string) => ({ organization: 'IBM', objectType, objectID });
  const started = Date.now();
  let published = 0;
  for (const [i, name] of names.entries()) {
    const { body } = await invoke(getUploadUrl, { auth: root, path: at(type, name) });
    const size = statSync(files[i] as string).size;
    const { createReadStream } = await import('node:fs');
    const { Readable } = await import('node:stream');
    const upload = await fetch(body.url, {
      method: 'PUT',
      headers: { 'content-length': String(size) },
      body: Readable.toWeb(createReadStream(files[i] as string)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    if (!upload.ok) throw new Error(`upload ${name}: ${upload.status}`);
    await invoke(putObject, {
      auth: root,
      path: at(type, name),
      body: { meta: { objectID: name, objectType: type, public: true } },
    });
    published += size;
  }
  const manifest = JSON.stringify({ softwareUpgrade: { version: '9.9.9', files: names } });
  const signature = signManifest(manifest, privateKeyOf());
  await invoke(putObject, {
    auth: root,
    path: at(MANIFEST_TYPE, 'm'),
    body: {
      meta: { objectID: 'm', objectType: MANIFEST_TYPE, public: true, hashAlgorithm: 'SHA256', signature },
    },
  });
  await invoke(putData, {
    auth: root,
    path: at(MANIFEST_TYPE, 'm'),
    body: manifest,
    headers: { 'content-type': 'application/octet-stream' },
  });
  const publishSeconds = (Date.now() - started) / 1000;

  await createOrg('fleet');
  await createUser('fleet', 'owner');
  const node = await createNode('fleet', 'n1', 'fleet/owner');
  let apiRequests = 0;
  let storeRequests = 0;
  let bytes = 0;
  const read = async (handler: typeof getObject, objectType: string, objectID: string) => {
    apiRequests += 1;
    const answer = await invoke(handler, { auth: node, path: at(objectType, objectID) });
    if (answer.status !== 302) {
      bytes += Buffer.byteLength(answer.text);
      return;
    }
    storeRequests += 1;
    bytes += (await (await fetch(answer.headers.location as string)).arrayBuffer()).byteLength;
  };
  // Warm: the first authentication of the node hashes its token (cached after, as a warm Lambda's).
  await invoke(getObject, { auth: node, path: at(MANIFEST_TYPE, 'm') });
  const downloadStarted = Date.now();
  const calls = await dynamoUsageOf(async () => {
    await read(getObject, MANIFEST_TYPE, 'm');
    await read(getData, MANIFEST_TYPE, 'm');
    await read(getObject, type, 'horizon-agent-linux-x64');
    await read(getData, type, 'horizon-agent-linux-x64');
  });
  const downloadSeconds = (Date.now() - downloadStarted) / 1000;
  const readUnits = calls.reduce((sum, c) => sum + c.readUnits, 0);
  const writeUnits = calls.reduce((sum, c) => sum + c.writeUnits, 0);
  const gb = (bytes * NODES) / 1024 ** 3;
  const cost = {
    'API Gateway HTTP requests': apiRequests * NODES * PRICES.httpRequest,
    'Lambda requests': apiRequests * NODES * PRICES.lambdaRequest,
    'DynamoDB read units': readUnits * NODES * PRICES.readUnit,
    'DynamoDB write units': writeUnits * NODES * PRICES.writeUnit,
    'S3 GET requests': storeRequests * NODES * S3.getRequest,
    'S3 transfer out': gb * S3.transferOutPerGb,
  };
  const total = Object.values(cost).reduce((sum, value) => sum + value, 0);
  console.log(
    `Published ${names.length} files, ${published} bytes, and a signed manifest in ${publishSeconds.toFixed(1)} s (local store)`,
  );
  console.log(
    `One node's download: ${apiRequests} API requests, ${storeRequests} store GETs, ${calls.length} DynamoDB calls (${readUnits} RRU, ${writeUnits} WRU), ${bytes} bytes, ${downloadSeconds.toFixed(2)} s locally`,
  );
  console.log(
    `${NODES} nodes on AWS at list prices of ${PRICES_AS_OF} (Lambda duration left out: each request is a few ms):`,
  );
  for (const [item, dollars] of Object.entries(cost))
    console.log(`  ${item.padEnd(28)} $${dollars.toFixed(4)}`);
  console.log(`  ${'total'.padEnd(28)} $${total.toFixed(2)} (${gb.toFixed(1)} GB out)`);
  console.log(
    `(sizes: ${names.map((n, i) => `${n} ${statSync(files[i] as string).size}`).join(', ')}; table ${BENCH_TABLE})`,
  );
  await store.stop();
} finally {
  rmSync(work, { recursive: true, force: true });
  await dynamo.stop();
}

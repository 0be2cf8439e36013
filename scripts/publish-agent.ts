import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_VERSION } from '../agent/ground/version.ts';
import { publishAgentFiles } from './publish-agent-files.ts';

/**
 * `npm run publish-agent -- -k <private key> [--dir dist/bin] [--version v]` (docs/nmp.md#publishing-an-agent-version):
 * publishes what `npm run build:bin` made (both executables and the installer) and a manifest
 * signed with the key, as the version the kit's VERSION file names (build:bin's --version), to the object store of HZN_EXCHANGE_URL (HZN_FSS_CSSURL if set), as
 * HZN_EXCHANGE_USER_AUTH (an IBM org admin, or root/root:<password>).
 */
const { values } = parseArgs({
  options: {
    'private-key-file': { type: 'string', short: 'k' },
    version: { type: 'string' },
    dir: { type: 'string', default: join('dist', 'bin') },
  },
});
const fail = (message: string): never => {
  console.error(`publish-agent: ${message}`);
  process.exit(1);
};
const exchange = process.env.HZN_EXCHANGE_URL?.replace(/\/+$/, '') ?? fail('set HZN_EXCHANGE_URL (…/v1)');
const credentials =
  process.env.HZN_EXCHANGE_USER_AUTH ??
  fail('set HZN_EXCHANGE_USER_AUTH (IBM/<admin>:<pw> or root/root:<pw>)');
const keyFile =
  values['private-key-file'] ?? fail('-k <private key file>: the key devices pin verifies the manifest');
const files = ['horizon-agent-linux-x64', 'horizon-agent-linux-arm64', 'agent-install.sh'].map((f) =>
  join(values.dir, f),
);
for (const file of files) if (!existsSync(file)) fail(`${file} is missing: run npm run build:bin first`);
// The version the executables report: a manifest naming another would never settle (docs/nmp.md).
const versionFile = join(values.dir, 'VERSION');
const built = existsSync(versionFile) ? readFileSync(versionFile, 'utf8').trim() : AGENT_VERSION;
if (values.version !== undefined && values.version !== built)
  fail(
    `--version ${values.version}: the executables in ${values.dir} are version ${built} (npm run build:bin -- --version ${values.version})`,
  );
const version = values.version ?? built;
const signingKey = createPrivateKey(readFileSync(keyFile, 'utf8'));
const published = await publishAgentFiles({
  cssUrl: process.env.HZN_FSS_CSSURL || `${exchange}/css`,
  credentials,
  version,
  files,
  signingKey,
  publicKeyPem: createPublicKey(signingKey).export({ type: 'spki', format: 'pem' }).toString(),
  log: (line) => console.log(line),
});
console.log(
  `Agent ${version}: ${published.files.length} files, ${published.bytes} bytes; manifest ${published.manifestId}`,
);

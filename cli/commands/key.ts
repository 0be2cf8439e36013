import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type Command, Option } from 'commander';
import { AgentClient } from '../agent-client.ts';
import { act, type Base, group, leaf, str } from '../command-kit.ts';
import type { Ctx } from '../context.ts';
import { EXIT, fatal, usage } from '../errors.ts';
import { confirmOrExit } from '../prompt.ts';
import { selfSignedCertificate } from '../x509.ts';

/** Where keys go by default (docs/hzn-behaviour.md#hzn-key-create): the env files, else ~/.hzn/keys/. */
export function defaultKeyPaths(ctx: Ctx): { privateKey: string; publicKey: string } {
  const dir = ctx.io.home ? join(ctx.io.home, '.hzn', 'keys') : '/tmp/keys';
  return {
    privateKey: ctx.env.HZN_PRIVATE_KEY_FILE || join(dir, 'service.private.key'),
    publicKey: ctx.env.HZN_PUBLIC_KEY_FILE || join(dir, 'service.public.pem'),
  };
}

/** `hzn key create <x509-org> <x509-cn>`: an RSA key pair and a self-signed signing certificate. */
export function keyCommands(program: Command, base: Base): void {
  const key = group(program, ['key'], 'List and manage keys for signing and verifying services.');
  const create = leaf(key, ['create', 'cr'], 'Generate a signing key pair.')
    .argument(
      '<x509-org>',
      "x509 certificate Organization (O) field (preferably a company name or other organization's name).",
    )
    .argument(
      '<x509-cn>',
      'x509 certificate Common Name (CN) field (preferably an email address issued by x509org).',
    )
    .option(
      '-d, --output-dir <dir>',
      'The directory to put the key pair files in. Mutually exclusive with -k and -K.',
    )
    .option('-k, --private-key-file <file>', 'The full path of the private key file.')
    .option('-K, --pubic-key-file <file>', 'The full path of the public key file (x509 certificate).')
    .addOption(new Option('--public-key-file <file>').hideHelp())
    .option('-f, --overwrite', 'Overwrite the existing files.')
    .option('-l, --length <bits>', 'The length of the key to create.', '4096')
    .option(
      '--days-valid <days>',
      'x509 certificate validity (Validity > NotAfter) expressed in days from the day of generation.',
      '1461',
    )
    .option('-i, --import', 'Automatically import the created public key into the local Horizon agent.');
  act(base, create, async (ctx, [org, cn], opts) => {
    const length = Number(opts.length);
    const days = Number(opts.daysValid);
    if (!Number.isInteger(length) || length < 1024)
      throw fatal(EXIT.CLI_INPUT_ERROR, `the key length must be an integer of at least 1024: ${opts.length}`);
    if (!Number.isInteger(days) || days < 1 || days >= 3653)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `--days-valid must be an integer between 1 and 3652: ${opts.daysValid}`,
      );
    const outputDir = str(opts.outputDir);
    const givenPublic = str(opts.pubicKeyFile) ?? str(opts.publicKeyFile);
    if (outputDir && (opts.privateKeyFile || givenPublic))
      throw fatal(EXIT.CLI_INPUT_ERROR, '-d is mutually exclusive with -k and -K.');
    if (outputDir && !existsSync(outputDir)) throw usage(`path '${outputDir}' does not exist`);

    const privateKey = generateKeyPairSync('rsa', {
      modulusLength: length,
      publicExponent: 0x10001,
    }).privateKey;
    const cert = selfSignedCertificate({
      privateKey,
      organization: org as string,
      commonName: cn as string,
      days,
      nowMs: ctx.io.now(),
    });
    const defaults = defaultKeyPaths(ctx);
    const prefix = outputDir
      ? join(outputDir, `${(org as string).replace(/[[\] ,.!@#$%^&*()<>?/\\{}~]/g, '')}-${cert.serialHex}`)
      : '';
    const privatePath = outputDir
      ? `${prefix}-private.key`
      : (str(opts.privateKeyFile) ?? defaults.privateKey);
    const publicPath = outputDir ? `${prefix}-public.pem` : (givenPublic ?? defaults.publicKey);
    if (existsSync(privatePath) || existsSync(publicPath))
      await confirmOrExit(
        ctx,
        `File ${privatePath} and ${publicPath} exist, do you want to overwrite?`,
        opts.overwrite === true,
      );

    ctx.io.out(
      'Creating RSA PSS private and public keys, and an x509 certificate for distribution. This is a CPU-intensive operation and, depending on key length and platform, may take a while. Key generation on an amd64 or ppc64 system using the default key length will complete in less than 1 minute.\n',
    );
    for (const path of [privatePath, publicPath]) mkdirSync(dirname(path), { recursive: true });
    // Unlike upstream (0666 & ~umask), the private key is readable by its owner only.
    writeFileSync(privatePath, privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), {
      mode: 0o600,
    });
    writeFileSync(publicPath, cert.pem, { mode: 0o644 });
    ctx.io.out(`Created keys:\n \t${privatePath}\n\t${publicPath}\n`);
    if (opts.import === true) {
      await new AgentClient(ctx).expect(
        'PUT',
        `trust/${encodeURIComponent(basename(publicPath))}`,
        [200, 201, 204],
        cert.pem,
      );
      ctx.io.out(`${publicPath} imported to the Horizon agent\n`);
    }
  });
}

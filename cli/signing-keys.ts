import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { defaultKeyPaths } from './commands/key.ts';
import type { Ctx } from './context.ts';
import { EXIT, fatal } from './errors.ts';

/**
 * The key that signs a deployment and the public key stored with it (docs/hzn-behaviour.md#hzn-exchange-service-publish step 2 and
 * step 4): `-k`, else HZN_PRIVATE_KEY_FILE (must exist), else ~/.hzn/keys/service.private.key if it
 * exists, else a fresh 2048-bit key. The stored key is `-K`'s file under its own name, else
 * `default.public.key` holding the SPKI PEM of the private key.
 */
export interface SigningKeys {
  privateKey: KeyObject;
  publicKeyName: string;
  publicKeyPem: string;
}

export function signingKeys(
  ctx: Ctx,
  privateFile: string | undefined,
  publicFile: string | undefined,
): SigningKeys {
  if (publicFile && !privateFile)
    throw fatal(EXIT.CLI_INPUT_ERROR, 'Please specify the private key file with -k when -K is specified.');
  const privateKey = loadPrivateKey(ctx, privateFile);
  if (publicFile) {
    const pem = readFileSync(publicFile, 'utf8');
    try {
      createPublicKey(pem);
    } catch {
      throw fatal(EXIT.CLI_INPUT_ERROR, `${publicFile} is not a valid public key or x509 certificate`);
    }
    return { privateKey, publicKeyName: basename(publicFile), publicKeyPem: pem };
  }
  return {
    privateKey,
    publicKeyName: 'default.public.key',
    publicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
  };
}

function loadPrivateKey(ctx: Ctx, given: string | undefined): KeyObject {
  let path = given;
  if (!path && ctx.env.HZN_PRIVATE_KEY_FILE) {
    path = ctx.env.HZN_PRIVATE_KEY_FILE;
    if (!existsSync(path))
      throw fatal(
        EXIT.CLI_GENERAL_ERROR,
        `The private key file ${path} specified by HZN_PRIVATE_KEY_FILE does not exist. Please create the signing key.`,
      );
  }
  if (!path && existsSync(defaultKeyPaths(ctx).privateKey)) path = defaultKeyPaths(ctx).privateKey;
  if (!path) {
    ctx.io.out(
      'No private key was specified: a temporary 2048-bit key pair is generated to sign the deployment.\n',
    );
    return generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 }).privateKey;
  }
  ctx.io.out(`Checking private key file format ... \n`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw fatal(EXIT.FILE_IO_ERROR, `reading ${path} failed: ${(err as Error).message}`);
  }
  try {
    const key = createPrivateKey(text);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not an RSA key');
    return key;
  } catch (err) {
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      `${path} is not a valid RSA private key in PEM format: ${(err as Error).message}`,
    );
  }
}

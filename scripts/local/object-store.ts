import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { verifyLocalUrl } from '#functions/objects/shared/local-url';

/**
 * The object store `npm start` runs (docs/nmp.md#the-object-store): S3's part on a laptop. It
 * serves only URLs the Exchange signed (functions/objects/shared/local-url.ts): GET and HEAD read
 * an object's data, PUT writes it (to a temporary file, renamed when complete, so a reader never
 * sees half a file), DELETE removes it. Files are named by the SHA-256 of their key.
 */
export interface ObjectStore {
  url: string;
  secret: string;
  stop(): Promise<void>;
}

export async function startObjectStore(options: {
  dir: string;
  port?: number;
  secret?: string;
}): Promise<ObjectStore> {
  mkdirSync(options.dir, { recursive: true });
  const secret = options.secret ?? randomBytes(32).toString('hex');
  const fileOf = (key: string) => join(options.dir, createHash('sha256').update(key).digest('hex'));
  const server: Server = createServer((req, res) => {
    const method = req.method ?? '';
    const key = verifyLocalUrl(secret, method, req.url ?? '', Math.floor(Date.now() / 1000));
    const answer = (status: number, text = '') => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(text);
    };
    if (key === undefined) return answer(403, 'signature does not match, or the URL expired\n');
    const file = fileOf(key);
    const size = (() => {
      try {
        return statSync(file).size;
      } catch {
        return undefined;
      }
    })();
    if (method === 'GET' || method === 'HEAD') {
      if (size === undefined) return answer(404, 'no such object\n');
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
      if (method === 'HEAD') return res.end();
      createReadStream(file).pipe(res);
      return;
    }
    if (method === 'DELETE') {
      rmSync(file, { force: true });
      return answer(204);
    }
    const partial = `${file}.${randomBytes(6).toString('hex')}.part`;
    pipeline(req, createWriteStream(partial))
      .then(() => {
        renameSync(partial, file);
        answer(200);
      })
      .catch(() => {
        rmSync(partial, { force: true });
        answer(500, 'write failed\n');
      });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    secret,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import { createPrivateKey } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { badInput } from '../errors.ts';
import { certificateProblem, InvalidTrustFile, parseTrustFile, type TrustContent } from './pem.ts';
import { describeCertificate } from './verbose.ts';

interface Parsed {
  mtimeMs: number;
  size: number;
  content: TrustContent | undefined;
}

/**
 * The trusted certificates and public keys, one `.pem` file each in one directory. Only files
 * that validate now are listed or served (upstream's rule); parses are cached by modification
 * time, so listing many certificates does not parse them again.
 */
export class TrustStore {
  private readonly cache = new Map<string, Parsed>();

  constructor(
    readonly dir: string,
    private readonly now: () => number,
  ) {}

  /** Names of the files that validate now, sorted. */
  list(): string[] {
    return this.files().filter((name) => this.valid(name) !== undefined);
  }

  /** `GET /trust?verbose=true`: the certificates (bare public keys are left out, as upstream does). */
  describe() {
    const out: ReturnType<typeof describeCertificate>[] = [];
    for (const name of this.files()) {
      const content = this.valid(name);
      if (content?.kind === 'cert')
        out.push(describeCertificate(name, content.cert, this.hasPrivateKey(name, content)));
    }
    return out;
  }

  /** The file's text, when it is a trust file that validates now. */
  read(name: string): string | undefined {
    checkName(name);
    return this.valid(name) ? readFileSync(this.path(name), 'utf8') : undefined;
  }

  /** Validates and stores (replacing a file of that name); throws InvalidTrustFile. */
  write(name: string, text: string): void {
    checkName(name);
    const content = parseTrustFile(text);
    if (content.kind === 'cert') {
      const problem = certificateProblem(content.cert, this.now());
      if (problem) throw new InvalidTrustFile(problem);
    }
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temp = this.path(`.${name}.${process.pid}.tmp`);
    writeFileSync(temp, text, { mode: 0o644 });
    chmodSync(temp, 0o644);
    renameSync(temp, this.path(name));
    this.cache.delete(name);
  }

  /** Removes the file (also one that no longer validates); false when there is none. */
  remove(name: string): boolean {
    checkName(name);
    if (!this.isFile(name)) return false;
    rmSync(this.path(name));
    this.cache.delete(name);
    return true;
  }

  private path(name: string): string {
    return join(this.dir, name);
  }

  private files(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names.filter((name) => name.endsWith('.pem') && this.isFile(name)).sort();
  }

  /** A regular file (never a symlink: it could point outside the directory). */
  private isFile(name: string): boolean {
    try {
      return lstatSync(this.path(name)).isFile();
    } catch {
      return false;
    }
  }

  private valid(name: string): TrustContent | undefined {
    const content = this.parsed(name);
    if (content?.kind === 'cert' && certificateProblem(content.cert, this.now())) return undefined;
    return content;
  }

  private parsed(name: string): TrustContent | undefined {
    let stat: { mtimeMs: number; size: number; isFile(): boolean };
    try {
      stat = lstatSync(this.path(name));
    } catch {
      this.cache.delete(name);
      return undefined;
    }
    if (!stat.isFile()) return undefined;
    const cached = this.cache.get(name);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.content;
    let content: TrustContent | undefined;
    try {
      content = parseTrustFile(readFileSync(this.path(name), 'utf8'));
    } catch {
      content = undefined;
    }
    this.cache.set(name, { mtimeMs: stat.mtimeMs, size: stat.size, content });
    return content;
  }

  /** Upstream: `<x>public.pem` has its private key in `<x>private.key`, if that key matches. */
  private hasPrivateKey(name: string, content: TrustContent): boolean {
    if (content.kind !== 'cert' || !name.endsWith('public.pem')) return false;
    try {
      const key = createPrivateKey(readFileSync(this.path(name.replace(/public\.pem$/, 'private.key'))));
      return content.cert.checkPrivateKey(key);
    } catch {
      return false;
    }
  }
}

/** A file name of the trust directory: one path segment ending in `.pem`, nothing that could escape. */
export function checkName(name: string): void {
  const plain =
    name.length <= 255 &&
    name === basename(name) &&
    !name.includes('\\') &&
    !name.includes('\0') &&
    name !== '.' &&
    name !== '..' &&
    !name.startsWith('.');
  if (!plain) throw badInput(`${JSON.stringify(name)} is not a plain file name`, 'filename');
  if (!name.endsWith('.pem')) throw badInput('filename must have .pem suffix', 'trusted cert file');
}

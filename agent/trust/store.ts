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
import {
  certificateProblem,
  InvalidTrustFile,
  lastingProblem,
  parseTrustFile,
  type TrustContent,
  timeProblem,
  type Validity,
  validity,
} from '#lib/protocol/trust-file';
import { badInput } from '../ground/errors.ts';
import { describeCertificate } from './verbose.ts';

type Description = ReturnType<typeof describeCertificate>;

/** One file as last read: what it holds and what does not change until the file does. */
interface Parsed {
  mtimeMs: number;
  size: number;
  content: TrustContent | undefined;
  /** Certificates: validity window, and whether a rule other than time fails. */
  validity?: Validity;
  broken?: boolean;
  description?: Description;
}

/**
 * The trusted certificates and public keys, one `.pem` file each in one directory. Only files
 * that validate now are listed or served (upstream's rule). What a file holds is cached by its
 * modification time and size, so listing many certificates neither reads nor parses them again.
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
  describe(): Description[] {
    const out: Description[] = [];
    for (const name of this.files()) {
      const parsed = this.valid(name);
      if (parsed?.content?.kind !== 'cert') continue;
      parsed.description ??= describeCertificate(name, parsed.content.cert, false);
      const withKey = name.endsWith('public.pem') && this.hasPrivateKey(name, parsed.content);
      out.push(withKey ? { ...parsed.description, have_private_key: true } : parsed.description);
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

  /** Regular `.pem` files, sorted (never symlinks: they could point outside the directory). */
  private files(): string[] {
    try {
      const entries = readdirSync(this.dir, { withFileTypes: true });
      return entries
        .filter((e) => e.isFile() && e.name.endsWith('.pem'))
        .map((e) => e.name)
        .sort();
    } catch {
      return [];
    }
  }

  private isFile(name: string): boolean {
    try {
      return lstatSync(this.path(name)).isFile();
    } catch {
      return false;
    }
  }

  private valid(name: string): Parsed | undefined {
    const parsed = this.parsed(name);
    if (!parsed?.content || parsed.broken) return undefined;
    if (parsed.validity && timeProblem(parsed.validity, this.now())) return undefined;
    return parsed;
  }

  private parsed(name: string): Parsed | undefined {
    let stat: { mtimeMs: number; size: number; isFile(): boolean };
    try {
      stat = lstatSync(this.path(name));
    } catch {
      this.cache.delete(name);
      return undefined;
    }
    if (!stat.isFile()) return undefined;
    const cached = this.cache.get(name);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached;
    const parsed: Parsed = { mtimeMs: stat.mtimeMs, size: stat.size, content: undefined };
    try {
      parsed.content = parseTrustFile(readFileSync(this.path(name), 'utf8'));
    } catch {
      // Not a trust file: cached as such until it changes.
    }
    if (parsed.content?.kind === 'cert') {
      parsed.validity = validity(parsed.content.cert);
      parsed.broken = lastingProblem(parsed.content.cert) !== undefined;
    }
    this.cache.set(name, parsed);
    return parsed;
  }

  /** Upstream: `<x>public.pem` has its private key in `<x>private.key`, if that key matches. */
  private hasPrivateKey(name: string, content: TrustContent): boolean {
    if (content.kind !== 'cert') return false;
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

import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A secret as the container sees it: the file holds this JSON (docs/agent.md#agreements). */
export interface SecretValue {
  key: string;
  value: string;
}

/** Secret names become file names: one path segment, no dot-names, nothing a shell would split. */
const SECRET_FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;

/**
 * The per-agreement secrets directories under the agent's data dir. Each agreement's directory is
 * bind-mounted read-only into its containers (at `/platform-secrets` and `/open-horizon-secrets`).
 * The directory is mounted, not each file, because a bind mount of a single file keeps showing
 * the replaced inode after a rename; a mounted directory shows the new file.
 */
export class SecretFiles {
  constructor(private readonly root: string) {}

  directoryOf(agreementId: string): string {
    if (!SECRET_FILE_NAME.test(agreementId))
      throw new Error('agreement id is not usable as a directory name');
    return join(this.root, agreementId);
  }

  /**
   * Writes (or rewrites) each secret's file atomically: a temporary file in the same directory,
   * then rename, so a reader in the container sees the old or the new value, never half of one.
   * Mode 0600 on files and 0700 on the directory (the containers run as root in them).
   */
  write(agreementId: string, secrets: Record<string, SecretValue>): void {
    const directory = this.directoryOf(agreementId);
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    chmodSync(directory, 0o700);
    for (const [name, secret] of Object.entries(secrets)) {
      if (!SECRET_FILE_NAME.test(name)) throw new Error(`secret name '${name}' is not a valid file name`);
      const temporary = join(directory, `.${name}.${process.pid}.tmp`);
      writeFileSync(temporary, JSON.stringify({ key: secret.key, value: secret.value }), { mode: 0o600 });
      renameSync(temporary, join(directory, name));
    }
  }

  /** The secret names written for an agreement (empty when it has none). */
  names(agreementId: string): string[] {
    try {
      return readdirSync(this.directoryOf(agreementId)).filter((name) => !name.startsWith('.'));
    } catch {
      return [];
    }
  }

  /** Removes an agreement's secrets with its directory (cancel, unregistration). */
  remove(agreementId: string): void {
    rmSync(this.directoryOf(agreementId), { recursive: true, force: true });
  }
}

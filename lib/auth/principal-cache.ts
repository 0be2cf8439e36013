import type { Principal } from './principal.ts';

/**
 * Resolved identities (kind, flags, owner, secret hash, a node's public key) by `org/id`, per
 * function instance, for at most `ttlMs`: a warm request authenticates without reading them again
 * through `load` (the table's lookup, tables/identity/principals.ts). Writes on this instance forget the entry at once
 * (tables/identity/principals.ts `changingIdentity`); other instances see a change when their entry
 * expires. Unknown ids are never remembered, so a new identity works at once, and a secret that
 * fails against a remembered entry is checked once more against a fresh read (authenticate.ts),
 * so a re-created identity or a new secret works at once too.
 */
export class PrincipalCache {
  /** Map order is insertion order: a hit re-inserts its entry, so the first key is the least recent. */
  private readonly entries = new Map<string, { principal: Principal; expiresAt: number }>();
  /** Bumped by every forget: a load that started before one does not store what it read. */
  private generation = 0;

  constructor(
    private readonly load: (org: string, id: string) => Promise<Principal | undefined>,
    private readonly ttlMs: () => number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 10_000,
  ) {}

  async get(org: string, id: string): Promise<Principal | undefined> {
    return (await this.lookup(org, id)).principal;
  }

  /** `get`, saying whether the answer was remembered (true) or read just now (false). */
  async lookup(org: string, id: string): Promise<{ principal: Principal | undefined; remembered: boolean }> {
    const key = `${org}/${id}`;
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (entry && entry.expiresAt > this.now()) {
      this.entries.set(key, entry);
      return { principal: entry.principal, remembered: true };
    }
    return { principal: await this.read(org, id, key), remembered: false };
  }

  /** Reads `org/id` again, whatever is remembered, and remembers what it read. */
  reread(org: string, id: string): Promise<Principal | undefined> {
    const key = `${org}/${id}`;
    this.entries.delete(key);
    return this.read(org, id, key);
  }

  private async read(org: string, id: string, key: string): Promise<Principal | undefined> {
    const generation = this.generation;
    const principal = await this.load(org, id);
    const ttl = this.ttlMs();
    if (principal && ttl > 0 && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(key, { principal, expiresAt: this.now() + ttl });
    }
    return principal;
  }

  forget(org: string, id: string): void {
    this.generation++;
    this.entries.delete(`${org}/${id}`);
  }

  /** Every identity of `org` (org delete). */
  forgetOrg(org: string): void {
    this.generation++;
    for (const key of this.entries.keys()) if (key.startsWith(`${org}/`)) this.entries.delete(key);
  }

  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Entries that still authenticate (expired ones wait for their next lookup or to be pushed out). */
  get size(): number {
    const now = this.now();
    let live = 0;
    for (const entry of this.entries.values()) if (entry.expiresAt > now) live++;
    return live;
  }
}

#!/usr/bin/env node
// The npm registry reachable from our machines lacks some platform builds of optional packages
// (e.g. @biomejs/cli-darwin-arm64). `npm install` then leaves them out of package-lock.json and
// `npm ci` refuses the lock as "not in sync". This adds a lock entry for each such optional
// package, marked with the os/cpu it is built for, so npm skips it on every other platform and
// never fetches it. Idempotent; run after changing dependencies (`npm run lock:fix`).
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

/** `@scope/cli-<os>-<cpu>[-<abi>]` or `@rollup/rollup-<os>-<cpu>[-<abi>]` → npm platform fields. */
function platformOf(name) {
  const match =
    /-(android|darwin|linux|win32|freebsd|openbsd|openharmony|sunos|aix|netbsd)-([a-z0-9]+)(?:-([a-z]+))?$/.exec(
      name,
    );
  if (!match) return undefined;
  const [, os, cpu, abi] = match;
  const fields = { os: [os], cpu: [cpu] };
  if (os === 'linux' && abi === 'musl') fields.libc = ['musl'];
  if (os === 'linux' && (abi === 'gnu' || abi === 'gnueabihf' || abi === undefined)) fields.libc = ['glibc'];
  return fields;
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    const key = packages[nested] ? nested : `node_modules/${name}`;
    if (packages[key]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    packages[key] = { version, dev: entry.dev, optional: true, ...platform };
    added += 1;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform-only optional package(s) recorded`);

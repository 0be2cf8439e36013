import type { RawUserInput, UserInputEntry, UserInputValue } from '../exchange/types.ts';

export const ANY_VERSION = '[0.0.0,INFINITY)';

/** Entries as kept locally and sent to the Exchange: every field present, defaults filled in. */
export function normalizeUserInput(entries: readonly RawUserInput[] | null | undefined): UserInputEntry[] {
  return (entries ?? []).map((e) => ({
    serviceOrgid: e.serviceOrgid ?? '',
    serviceUrl: e.serviceUrl ?? '',
    serviceArch: e.serviceArch ?? '',
    serviceVersionRange: e.serviceVersionRange || ANY_VERSION,
    inputs: (e.inputs ?? []).map((i) => ({ name: i.name, value: i.value })),
  }));
}

/**
 * PATCH semantics (upstream): an entry matches an existing one with the same org and url and a
 * compatible arch (equal, or either empty); matching entries get their inputs merged by name (new
 * value wins, new names appended); other entries are appended.
 */
export function mergeUserInput(existing: UserInputEntry[], patch: UserInputEntry[]): UserInputEntry[] {
  const merged = existing.map((e) => ({ ...e, inputs: [...e.inputs] }));
  for (const entry of patch) {
    const target = merged.find(
      (e) =>
        e.serviceOrgid === entry.serviceOrgid &&
        e.serviceUrl === entry.serviceUrl &&
        (e.serviceArch === entry.serviceArch || e.serviceArch === '' || entry.serviceArch === ''),
    );
    if (!target) {
      merged.push({ ...entry, inputs: [...entry.inputs] });
      continue;
    }
    for (const input of entry.inputs) mergeInput(target.inputs, input);
  }
  return merged;
}

function mergeInput(inputs: UserInputValue[], input: UserInputValue): void {
  const index = inputs.findIndex((i) => i.name === input.name);
  if (index >= 0) inputs[index] = input;
  else inputs.push(input);
}

const VERSION = String.raw`\d+(\.\d+){0,2}`;
const RANGE = new RegExp(String.raw`^(${VERSION}|[\[(]\s*${VERSION}\s*,\s*(${VERSION}|INFINITY)\s*[\])])$`);

/** Longer than any real range: refused before the pattern runs. */
const MAX_VERSION_RANGE_LENGTH = 256;

/** OSGI version range: `1.2.3` (that version or later) or `[low,high)` with either bracket kind. */
export const isVersionRange = (range: string) =>
  range.length <= MAX_VERSION_RANGE_LENGTH && RANGE.test(range);

const ARCH_SYNONYMS = new Map([
  ['x86_64', 'amd64'],
  ['aarch64', 'arm64'],
  ['armhf', 'arm'],
  ['armv7l', 'arm'],
]);

/** True when a service arch names the node's arch (synonyms such as x86_64 count). */
export const archMatches = (serviceArch: string, nodeArch: string) =>
  (ARCH_SYNONYMS.get(serviceArch) ?? serviceArch) === (ARCH_SYNONYMS.get(nodeArch) ?? nodeArch);

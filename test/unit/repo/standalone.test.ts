import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '#test/support/import-graph';

/**
 * The repository stands alone: what its code and docs cite is in it (docs/, tables/README.md) or is
 * public (upstream's source, RFCs). No `§` reference to a working note, no link to a file that is
 * not here or to a heading that does not exist, no path of one machine.
 */
/** What git ignores (.gitignore), and git's own folder: not part of the repository. */
const IGNORED = /^(\.git|node_modules|\.data|\.esbuild.*|\.serverless|coverage|dist)$/;

/** The repository's text files, as paths from its root (the unit project runs no `git`). */
function textFiles(dir = ''): string[] {
  return readdirSync(join(repositoryRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return IGNORED.test(entry.name) ? [] : textFiles(path);
    const generated = /^(dynamodb-local-metadata\.json|serverless\.bench-.*\.yml|.*\.log)$/.test(entry.name);
    return !generated && /\.(ts|mts|mjs|js|json|md|py|go|ya?ml|sh)$/.test(entry.name) ? [path] : [];
  });
}
const SELF = 'test/unit/repo/standalone.test.ts';
const tracked = textFiles().filter((path) => path !== SELF);
const read = (path: string) => readFileSync(join(repositoryRoot, path), 'utf8');

/** `file:line: text` of every line of a tracked file matching `pattern`, minus the allowed files. */
function offending(pattern: RegExp, allowed: string[] = []): string[] {
  const found: string[] = [];
  for (const path of tracked) {
    if (allowed.includes(path)) continue;
    read(path)
      .split('\n')
      .forEach((line, index) => {
        if (pattern.test(line)) found.push(`${path}:${index + 1}: ${line.trim().slice(0, 120)}`);
      });
  }
  return found;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(path: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  let fence = false;
  for (const line of read(path).split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const heading = !fence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = (heading[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const repeat = seen.get(slug) ?? 0;
    seen.set(slug, repeat + 1);
    found.add(repeat ? `${slug}-${repeat}` : slug);
  }
  return found;
}

/** Whether `target` (a repository path, maybe with `#anchor`) names a file here and a heading in it. */
function brokenTarget(target: string): string | undefined {
  const [file = '', anchor] = target.split('#');
  const full = join(repositoryRoot, file);
  if (!existsSync(full)) return 'no such file';
  if (anchor && file.endsWith('.md') && !statSync(full).isDirectory() && !anchors(file).has(anchor)) {
    return `no heading #${anchor}`;
  }
  return undefined;
}

describe('a repository that stands alone', () => {
  it('has no § reference to a document outside it (public standards such as RFCs aside)', () => {
    expect(offending(/(?<!RFC \d+ )§/)).toEqual([]);
  });

  it('names none of the working notes or their folder', () => {
    const notes =
      /(^|[^\w-])(\.\.\/)?shared\/(reference|spec)\/|DESIGN\.md|agreements-and-workloads|exchange-behavior|agent-behavior|hzn-cli\.md|heartbeat-and-polling/;
    expect(offending(notes)).toEqual([]);
  });

  it('cites no outside API specification as "the contract" (the agbot store’s contract suite aside)', () => {
    const spec =
      /contract "|\bthe contract['’]s\b|\bthe contract says|\(the contract\b|\bcontract paths|\(contract[;:,)]|\bContract:/i;
    const allowed = ['agbot/test-support/store-contract.ts', 'lib/agbot-store/contract.ts'];
    expect(offending(spec, allowed)).toEqual([]);
  });

  it("holds no path of one machine (a workspace, root's or a user's home folder)", () => {
    // Host paths a deployment may bind are test data of the privilege checks, not this machine's.
    const allowed = ['test/unit/protocol/host-access.test.ts', 'lib/protocol/host-paths.ts'];
    expect(offending(/(?<![\w.-])\/(work|root|home\/[a-z_][\w.-]*)\//, allowed)).toEqual([]);
  });

  it('links from markdown only to files here and to headings that exist', () => {
    const broken: string[] = [];
    for (const path of tracked.filter((file) => file.endsWith('.md'))) {
      let fence = false;
      read(path)
        .split('\n')
        .forEach((line, index) => {
          if (/^\s*(```|~~~)/.test(line)) fence = !fence;
          if (fence) return;
          for (const [, href = ''] of line
            .replaceAll(/`[^`]*`/g, '')
            .matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
            if (/^[a-z][a-z+.-]*:/i.test(href)) continue;
            const target = href.startsWith('#') ? `${path}${href}` : posix.join(posix.dirname(path), href);
            const why = brokenTarget(decodeURIComponent(target));
            if (why) broken.push(`${path}:${index + 1}: ${href} (${why})`);
          }
        });
    }
    expect(broken).toEqual([]);
  });

  it('cites our docs from code and comments by files and headings that exist (docs/x.md#a, #b)', () => {
    const broken: string[] = [];
    for (const path of tracked.filter((file) => !file.endsWith('.md'))) {
      const text = read(path);
      for (const cite of text.matchAll(
        /\b((?:docs\/[\w.-]+|(?:tables\/)?README)\.md)((?:#[\w-]+)(?:(?:,| to|\/| and) ?#[\w-]+)*)?/g,
      )) {
        const [, file = '', fragments = ''] = cite;
        // Upstream's own docs, cited with their repository, are not ours.
        if (/open-horizon\/[\w.-]+[ `]*$/.test(text.slice(Math.max(0, cite.index - 40), cite.index)))
          continue;
        const targets = fragments
          ? [...fragments.matchAll(/#([\w-]+)/g)].map(([, a]) => `${file}#${a}`)
          : [file];
        for (const target of targets) {
          const why = brokenTarget(target);
          if (why) broken.push(`${path}: ${target} (${why})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

/**
 * The measured part of `npm run test:times` (scripts/test-times.ts): a run's report read into one
 * shape, its per-file and per-project times, and the generated block of docs/testing.md, written
 * and parsed here so that test/unit/repo/testing-doc.test.ts reads the block as it was written.
 * Nothing here starts a process.
 */
import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import config from '../vitest.config.ts';

export const repositoryRoot = join(import.meta.dirname, '..');

/** What a file's `seconds` measures; the reporter of this script measures the first. */
export type Measure = 'file' | 'tests';
export const MEASURES: Record<Measure, string> = {
  file:
    "each file's wall time in its worker: start-up, setup files, imports, every hook and test " +
    '(scripts/test-times-reporter.ts)',
  tests:
    "from each file's first test start to its last test end (vitest's JSON reporter): imports, " +
    "`beforeAll` and `afterAll` are left out, so a file's start-up of a server does not count",
};

/** One test file of a run. Times are epoch milliseconds. */
export interface FileTime {
  /** Repository path with `/`. */
  path: string;
  project: string;
  start: number;
  end: number;
  /** `end - start`, in seconds: what `measure` says. */
  seconds: number;
  /** First test start to last test end, in seconds: what vitest's JSON reporter measures. */
  testsSeconds: number;
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
}

/** A run, whichever reporter wrote it. */
export interface Run {
  measure: Measure;
  /** When the run started (the reporter's start, before any global setup). */
  startTime: number;
  /** When it ended; vitest's JSON reporter records no end, so there the last file's end. */
  endTime: number;
  files: FileTime[];
}

export interface ProjectTime {
  project: string;
  files: number;
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
  /** The sum of its files' seconds: the work, whatever ran beside it. */
  sumSeconds: number;
  /** From its first file's start to its last file's end. */
  spanSeconds: number;
  start: number;
  end: number;
}

export interface Summary {
  measure: Measure;
  /** ISO time of the run's start. */
  date: string;
  wallSeconds: number;
  files: number;
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
  projects: ProjectTime[];
  /** Every file, slowest first. */
  slowest: FileTime[];
}

// ---------------------------------------------------------------------------------------------
// The projects of vitest.config.ts

export interface ProjectGlobs {
  name: string;
  include: string[];
}

/** The projects and their include globs, in the config's order (the one source of truth). */
export const PROJECTS: ProjectGlobs[] = (config.test?.projects ?? []).map((entry) => {
  const test = (entry as { test: { name: string; include: string[] } }).test;
  return { name: test.name, include: test.include };
});

/** A vitest include glob (`*`, `**`, `?`, `{a,b}`) as a regular expression over a repository path. */
export function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? '';
    if (glob.startsWith('**/', i)) {
      pattern += '(?:[^/]+/)*';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      pattern += '.*';
      i += 1;
    } else if (c === '*') pattern += '[^/]*';
    else if (c === '?') pattern += '[^/]';
    else if (c === '{') pattern += '(?:';
    else if (c === '}') pattern += ')';
    else if (c === ',' && glob.lastIndexOf('{', i) > glob.lastIndexOf('}', i)) pattern += '|';
    else pattern += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

const matchers = PROJECTS.map(({ name, include }) => ({ name, globs: include.map(globToRegExp) }));

/** The project whose include globs take this repository path, or undefined. */
export function projectOf(path: string): string | undefined {
  return matchers.find(({ globs }) => globs.some((glob) => glob.test(path)))?.name;
}

/** Folders vitest leaves out by default, and build output. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.cache', '.idea', '.output', '.temp']);

/** Every test file of the tree that some project includes, as sorted repository paths. */
export function listTestFiles(root = repositoryRoot): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    const full = join(root, dir);
    if (!existsSync(full)) return;
    for (const entry of readdirSync(full, { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(path);
      } else if (projectOf(path)) found.add(path);
    }
  };
  // Only below each glob's fixed folder: the repository's build folders are large.
  const bases = new Set(
    PROJECTS.flatMap(({ include }) =>
      include.map((glob) => glob.split(/[*?{]/)[0]?.replace(/\/?[^/]*$/, '')),
    ),
  );
  for (const base of bases) walk(base ?? '');
  return [...found].sort();
}

// ---------------------------------------------------------------------------------------------
// Reading a run

/** What scripts/test-times-reporter.ts writes. */
export const REPORT_FORMAT = 'test-times/1';
export interface ReporterFile {
  path: string;
  project: string;
  start: number;
  end: number;
  testsStart: number;
  testsEnd: number;
  passed: number;
  failed: number;
  skipped: number;
}
export interface ReporterOutput {
  format: typeof REPORT_FORMAT;
  startTime: number;
  endTime: number;
  files: ReporterFile[];
}

/** The fields of vitest's JSON reporter (`--reporter=json`) read here. */
interface VitestJson {
  startTime: number;
  testResults: {
    name: string;
    startTime: number;
    endTime: number;
    assertionResults: { status: string }[];
  }[];
}

/**
 * A vitest path as a repository path: relative to `root` when under it, else (a report written in
 * another checkout) the longest tail that a project includes.
 */
export function repositoryPath(name: string, root = repositoryRoot): string {
  const inside = relative(root, name);
  if (!inside.startsWith('..') && !isAbsolute(inside)) return inside.split(sep).join('/');
  const parts = name.split(/[\\/]/);
  for (let i = 0; i < parts.length; i++) {
    const tail = parts.slice(i).join('/');
    if (projectOf(tail)) return tail;
  }
  return name;
}

const seconds = (ms: number) => Math.max(0, ms) / 1000;

/** A run from what either reporter wrote (this script's, or vitest's JSON reporter). */
export function readRun(data: unknown, root = repositoryRoot): Run {
  const report = data as Partial<ReporterOutput> & Partial<VitestJson>;
  if (report.format === REPORT_FORMAT && Array.isArray(report.files)) {
    return {
      measure: 'file',
      startTime: report.startTime ?? 0,
      endTime: report.endTime ?? 0,
      files: report.files.map((file) => ({
        path: file.path,
        project: file.project,
        start: file.start,
        end: file.end,
        seconds: seconds(file.end - file.start),
        testsSeconds: seconds(file.testsEnd - file.testsStart),
        tests: file.passed + file.failed + file.skipped,
        passed: file.passed,
        failed: file.failed,
        skipped: file.skipped,
      })),
    };
  }
  if (typeof report.startTime === 'number' && Array.isArray(report.testResults)) {
    const files = report.testResults.map((result): FileTime => {
      const path = repositoryPath(result.name, root);
      const count = (status: string) => result.assertionResults.filter((a) => a.status === status).length;
      const passed = count('passed');
      const failed = count('failed');
      const span = seconds(result.endTime - result.startTime);
      return {
        path,
        project: projectOf(path) ?? '?',
        start: Math.round(result.startTime),
        end: Math.round(result.endTime),
        seconds: span,
        testsSeconds: span,
        tests: result.assertionResults.length,
        passed,
        failed,
        skipped: result.assertionResults.length - passed - failed,
      };
    });
    const endTime = Math.max(report.startTime, ...files.map((file) => file.end));
    return { measure: 'tests', startTime: report.startTime, endTime, files };
  }
  throw new Error("neither vitest's JSON report nor scripts/test-times-reporter.ts's");
}

const round = (value: number) => Math.round(value * 10) / 10;

/** Per-file and per-project times of a run, files slowest first, projects in the config's order. */
export function summarize(run: Run): Summary {
  const sum = (files: FileTime[], key: 'tests' | 'passed' | 'failed' | 'skipped') =>
    files.reduce((total, file) => total + file[key], 0);
  const order = PROJECTS.map(({ name }) => name);
  const names = [...new Set(run.files.map((file) => file.project))].sort(
    (a, b) => (order.indexOf(a) + 1 || order.length + 1) - (order.indexOf(b) + 1 || order.length + 1),
  );
  const projects = names.map((project): ProjectTime => {
    const files = run.files.filter((file) => file.project === project);
    // A file none of whose tests started (its `beforeAll` failed) has no time in vitest's JSON
    // report, and the report's start for one: it would stretch the span back to the run's start.
    const timed = files.filter((file) => file.end > file.start);
    const start = Math.min(...(timed.length ? timed : files).map((file) => file.start));
    const end = Math.max(start, ...timed.map((file) => file.end));
    return {
      project,
      files: files.length,
      tests: sum(files, 'tests'),
      passed: sum(files, 'passed'),
      failed: sum(files, 'failed'),
      skipped: sum(files, 'skipped'),
      sumSeconds: round(files.reduce((total, file) => total + file.seconds, 0)),
      spanSeconds: round(seconds(end - start)),
      start,
      end,
    };
  });
  const slowest = [...run.files]
    .map((file) => ({ ...file, seconds: round(file.seconds), testsSeconds: round(file.testsSeconds) }))
    .sort((a, b) => b.seconds - a.seconds || a.path.localeCompare(b.path));
  return {
    measure: run.measure,
    date: new Date(run.startTime).toISOString(),
    wallSeconds: round(seconds(run.endTime - run.startTime)),
    files: run.files.length,
    tests: sum(run.files, 'tests'),
    passed: sum(run.files, 'passed'),
    failed: sum(run.files, 'failed'),
    skipped: sum(run.files, 'skipped'),
    projects,
    slowest,
  };
}

// ---------------------------------------------------------------------------------------------
// Tables

/** A markdown table with its columns padded; `right` lists the columns aligned right. */
export function markdownTable(header: string[], rows: string[][], right: number[] = []): string {
  const widths = header.map((cell, i) =>
    Math.max(3, cell.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => (right.includes(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `| ${widths.map((width, i) => (right.includes(i) ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width))).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

const s = (value: number) => value.toFixed(1);

export function projectTable(summary: Summary, code = true): string {
  const name = (project: string) => (code ? `\`${project}\`` : project);
  return markdownTable(
    ['Project', 'Files', 'Tests', 'Sum of file times (s)', 'Span (s)'],
    summary.projects.map((p) => [
      name(p.project),
      `${p.files}`,
      `${p.tests}`,
      s(p.sumSeconds),
      s(p.spanSeconds),
    ]),
    [1, 2, 3, 4],
  );
}

export function fileTable(files: FileTime[], code = true): string {
  const name = (text: string) => (code ? `\`${text}\`` : text);
  return markdownTable(
    ['File', 'Project', 'Seconds', 'Tests'],
    files.map((file) => [name(file.path), name(file.project), s(file.seconds), `${file.tests}`]),
    [2, 3],
  );
}

// ---------------------------------------------------------------------------------------------
// The generated block of docs/testing.md

export const DOCS_FILE = 'docs/testing.md';
export const BEGIN = '<!-- test-times:begin -->';
export const END = '<!-- test-times:end -->';
export const SLOWEST = 20;

/** The block between the markers (markers included). */
export function renderDocsBlock(summary: Summary): string {
  const date = summary.date.replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC');
  const counts = `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`;
  return [
    BEGIN,
    '<!-- Written by `npm run test:times -- --write-docs` (scripts/test-times.ts); edit outside the markers. -->',
    '',
    `Run of ${date}: ${summary.files} test files, ${summary.tests} tests (${counts}), ` +
      `${s(summary.wallSeconds)} s of wall time.`,
    `Measure: ${MEASURES[summary.measure]}.`,
    '',
    projectTable(summary),
    '',
    `The ${Math.min(SLOWEST, summary.files)} slowest files:`,
    '',
    fileTable(summary.slowest.slice(0, SLOWEST)),
    END,
  ].join('\n');
}

/** `doc` with its block replaced by `block`; a doc without the markers gets it at its end. */
export function replaceDocsBlock(doc: string, block: string): string {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) return `${doc.trimEnd()}\n\n${block}\n`;
  return doc.slice(0, begin) + block + doc.slice(end + END.length);
}

/** What the block states, read back. */
export interface DocsBlock {
  date: string;
  files: number;
  tests: number;
  wallSeconds: number;
  measure: Measure;
  projects: { project: string; files: number; tests: number; sumSeconds: number; spanSeconds: number }[];
  slowest: { path: string; project: string; seconds: number; tests: number }[];
}

/** The block of `doc`, or an error saying what does not parse. */
export function parseDocsBlock(doc: string): DocsBlock {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`no ${BEGIN} ... ${END} block`);
  const block = doc.slice(begin + BEGIN.length, end);
  const run =
    /Run of (\d{4}-\d\d-\d\d \d\d:\d\d UTC): (\d+) test files, (\d+) tests \(\d+ passed, \d+ failed, \d+ skipped\), ([\d.]+) s of wall time\./.exec(
      block,
    );
  if (!run) throw new Error('no "Run of <date>: <n> test files, <n> tests (...), <s> s of wall time." line');
  const measure = (Object.keys(MEASURES) as Measure[]).find((key) =>
    block.includes(`Measure: ${MEASURES[key]}.`),
  );
  if (!measure) throw new Error('no "Measure: ..." line naming a known measure');
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1'));
  const rows = block.split('\n').filter((line) => /^\| `/.test(line));
  const projects = rows
    .map(cells)
    .filter((row) => row.length === 5)
    .map(([project = '', files = '', tests = '', sum = '', span = '']) => ({
      project,
      files: Number(files),
      tests: Number(tests),
      sumSeconds: Number(sum),
      spanSeconds: Number(span),
    }));
  const slowest = rows
    .map(cells)
    .filter((row) => row.length === 4)
    .map(([path = '', project = '', secs = '', tests = '']) => ({
      path,
      project,
      seconds: Number(secs),
      tests: Number(tests),
    }));
  const numbers = [
    ...projects.flatMap((p) => [p.files, p.tests, p.sumSeconds, p.spanSeconds]),
    ...slowest.flatMap((f) => [f.seconds, f.tests]),
  ];
  if (numbers.some((n) => !Number.isFinite(n)))
    throw new Error('a table cell that should be a number is not');
  return {
    date: run[1] ?? '',
    files: Number(run[2]),
    tests: Number(run[3]),
    wallSeconds: Number(run[4]),
    measure,
    projects,
    slowest,
  };
}

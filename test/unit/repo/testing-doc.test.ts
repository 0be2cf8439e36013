import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DOCS_FILE,
  type FileTime,
  globToRegExp,
  listTestFiles,
  PROJECTS,
  parseDocsBlock,
  projectOf,
  readRun,
  renderDocsBlock,
  replaceDocsBlock,
  repositoryPath,
  repositoryRoot,
  SLOWEST,
  summarize,
} from '../../../scripts/test-times-summary.ts';

/**
 * The generated block of docs/testing.md (`npm run test:times -- --write-docs`) against the tree:
 * it parses, and it comes from a whole run of about this tree. It may be stale by at most the files
 * it names (named files since renamed or deleted, test files added or deleted); past that,
 * regenerate it.
 */
const doc = readFileSync(join(repositoryRoot, DOCS_FILE), 'utf8');
const block = parseDocsBlock(doc);
const projectNames = PROJECTS.map(({ name }) => name);

describe('docs/testing.md, the generated table of test times', () => {
  it('parses: the run line, the measure, a row per project of the config and the slowest files', () => {
    expect(block.files).toBeGreaterThan(0);
    expect(block.projects.length).toBeGreaterThan(0);
    for (const { project } of block.projects) expect(projectNames).toContain(project);
    expect(block.projects.reduce((sum, p) => sum + p.files, 0)).toBe(block.files);
    expect(block.projects.reduce((sum, p) => sum + p.tests, 0)).toBe(block.tests);
  });

  it(`names the ${SLOWEST} slowest files (all of them for a smaller run), slowest first`, () => {
    expect(block.slowest).toHaveLength(Math.min(SLOWEST, block.files));
    const seconds = block.slowest.map((file) => file.seconds);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
  });

  it('names each file with the project whose globs take it', () => {
    const wrong = block.slowest
      .filter(({ path }) => existsSync(join(repositoryRoot, path)))
      .filter(({ path, project }) => projectOf(path) !== project)
      .map(({ path, project }) => `${path} (${project})`);
    expect(wrong).toEqual([]);
  });

  it('is stale by at most the files it names: the named files gone, plus the change in the file count', () => {
    // A renamed or deleted file the table names counts once, and a test file added or deleted
    // anywhere once; past the number of files it names, the table misleads: regenerate it.
    const gone = block.slowest
      .filter(({ path }) => !existsSync(join(repositoryRoot, path)))
      .map((f) => f.path);
    const inTree = listTestFiles().length;
    const stale = gone.length + Math.abs(block.files - inTree);
    expect(
      stale,
      `the run had ${block.files} test files, the tree has ${inTree}; gone: ${gone.join(', ') || 'none'}. ` +
        'Regenerate: npm run test:times -- --write-docs',
    ).toBeLessThanOrEqual(block.slowest.length);
  });
});

describe('scripts/test-times-summary.ts', () => {
  const file = (path: string, start: number, end: number, passed = 1, failed = 0): FileTime => ({
    path,
    project: projectOf(path) ?? '?',
    start,
    end,
    seconds: (end - start) / 1000,
    testsSeconds: (end - start) / 1000,
    tests: passed + failed,
    passed,
    failed,
    skipped: 0,
  });

  it("reads vitest.config.ts's globs as vitest does", () => {
    expect(projectOf('test/unit/repo/testing-doc.test.ts')).toBe('unit');
    expect(projectOf('agent/fuzz/local-api.test.ts')).toBe('agent');
    expect(projectOf('agent/engine.test.ts')).toBe('agent');
    expect(projectOf('test/e2e/fuzz/exchange.test.ts')).toBe('e2e');
    expect(projectOf('test/support/table.ts')).toBeUndefined();
    expect(projectOf('test/unit/x.test.tsx')).toBeUndefined();
    expect(globToRegExp('a/{b,c}/*.ts').test('a/c/d.ts')).toBe(true);
    expect(listTestFiles()).toContain('test/unit/repo/testing-doc.test.ts');
  });

  it("reads vitest's JSON report with paths of another checkout", () => {
    const run = readRun({
      startTime: 1000,
      testResults: [
        {
          name: '/elsewhere/checkout/test/integration/orgs/orgs.test.ts',
          startTime: 3000,
          endTime: 5500,
          assertionResults: [{ status: 'passed' }, { status: 'failed' }, { status: 'skipped' }],
        },
      ],
    });
    expect(repositoryPath(join(repositoryRoot, 'cli/a.test.ts'))).toBe('cli/a.test.ts');
    expect(run).toMatchObject({ measure: 'tests', startTime: 1000, endTime: 5500 });
    expect(run.files).toEqual([
      expect.objectContaining({
        path: 'test/integration/orgs/orgs.test.ts',
        project: 'integration',
        seconds: 2.5,
        passed: 1,
        failed: 1,
        skipped: 1,
      }),
    ]);
  });

  it('writes a block that reads back, and replaces only the block', () => {
    const files = [
      file('test/unit/a.test.ts', 0, 1000),
      file('test/unit/b.test.ts', 500, 4000, 3, 1),
      file('test/e2e/c.test.ts', 1000, 61_000, 5),
    ];
    const summary = summarize({ measure: 'file', startTime: 0, endTime: 62_000, files });
    expect(summary.projects.map((p) => [p.project, p.sumSeconds, p.spanSeconds])).toEqual([
      ['unit', 4.5, 4],
      ['e2e', 60, 60],
    ]);
    const old = '<!-- test-times:begin -->\nan older run\n<!-- test-times:end -->';
    const written = replaceDocsBlock(`# T\n\nby hand\n\n${old}\n\nafter\n`, renderDocsBlock(summary));
    expect(written.startsWith('# T\n\nby hand\n\n')).toBe(true);
    expect(written.endsWith('\n\nafter\n')).toBe(true);
    expect(parseDocsBlock(written)).toEqual({
      date: '1970-01-01 00:00 UTC',
      files: 3,
      tests: 10,
      wallSeconds: 62,
      measure: 'file',
      projects: [
        { project: 'unit', files: 2, tests: 5, sumSeconds: 4.5, spanSeconds: 4 },
        { project: 'e2e', files: 1, tests: 5, sumSeconds: 60, spanSeconds: 60 },
      ],
      slowest: [
        { path: 'test/e2e/c.test.ts', project: 'e2e', seconds: 60, tests: 5 },
        { path: 'test/unit/b.test.ts', project: 'unit', seconds: 3.5, tests: 4 },
        { path: 'test/unit/a.test.ts', project: 'unit', seconds: 1, tests: 1 },
      ],
    });
  });
});

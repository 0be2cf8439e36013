import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  DOCS_FILE,
  fileTable,
  listTestFiles,
  MEASURES,
  projectTable,
  readRun,
  renderDocsBlock,
  replaceDocsBlock,
  repositoryRoot,
  SLOWEST,
  type Summary,
  summarize,
} from './test-times-summary.ts';

/**
 * `npm run test:times`: where the test suite's time goes (docs/testing.md, "Measuring").
 *
 *   npm run test:times                          # the whole suite, then the report
 *   npm run test:times -- --project unit        # vitest's own arguments pass through
 *   npm run test:times -- --from <report.json>  # the report of an earlier run; runs nothing
 *   npm run test:times -- --write-docs          # also regenerates the block of docs/testing.md
 *
 * A run writes scripts/test-times-reporter.ts's report (`--out`, default
 * .test-times/last-run.json); `--from` also reads vitest's JSON reporter (`--reporter=json`).
 * Either way the table goes to stdout and the summary to .test-times/summary.json.
 */
const USAGE =
  'usage: npm run test:times -- [--from <report.json> | --out <report.json> [vitest args...]] [--write-docs] [--top <n>]';
const DIR = join(repositoryRoot, '.test-times');

interface Options {
  from?: string;
  out: string;
  writeDocs: boolean;
  top: number;
  vitestArgs: string[];
}

function parseArgs(args: string[]): Options {
  const options: Options = {
    out: join(DIR, 'last-run.json'),
    writeDocs: false,
    top: SLOWEST,
    vitestArgs: [],
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return next;
    };
    if (arg === '--from') options.from = resolve(value());
    else if (arg === '--out') options.out = resolve(value());
    else if (arg === '--write-docs') options.writeDocs = true;
    else if (arg === '--top') options.top = Number(value());
    else if (arg === '--help' || arg === '-h') throw new Error(USAGE);
    else options.vitestArgs.push(arg);
  }
  if (options.from && options.vitestArgs.length) {
    throw new Error(`--from runs nothing: ${options.vitestArgs.join(' ')} would be ignored\n${USAGE}`);
  }
  if (!Number.isInteger(options.top) || options.top < 1) throw new Error(`--top takes a count\n${USAGE}`);
  return options;
}

/** Runs vitest with this script's reporter beside the default one; resolves to its exit code. */
function runVitest(out: string, args: string[]): Promise<number> {
  const bin = join(repositoryRoot, 'node_modules', 'vitest', 'vitest.mjs');
  const reporter = join(repositoryRoot, 'scripts', 'test-times-reporter.ts');
  const argv = [bin, 'run', '--reporter=default', `--reporter=${reporter}`, ...args];
  console.log(`vitest ${argv.slice(1).join(' ')}`);
  const child = spawn(process.execPath, argv, {
    cwd: repositoryRoot,
    stdio: 'inherit',
    env: { ...process.env, TEST_TIMES_OUTPUT: out },
  });
  // Ctrl-C reaches vitest through the terminal; wait for it to stop instead of dying first.
  process.on('SIGINT', () => {});
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

function print(summary: Summary, top: number, source: string): void {
  const counts = `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`;
  console.log(`\nTest times of ${source}`);
  console.log(`Run of ${summary.date}: ${summary.files} files, ${summary.tests} tests (${counts}),`);
  console.log(`${summary.wallSeconds.toFixed(1)} s of wall time. Seconds: ${MEASURES[summary.measure]}.\n`);
  console.log(projectTable(summary, false));
  console.log(
    `\nThe ${Math.min(top, summary.files)} slowest files (all of them in .test-times/summary.json):\n`,
  );
  console.log(fileTable(summary.slowest.slice(0, top), false));
}

/** Refuses a partial run: test/unit/repo/testing-doc.test.ts would call its table stale. */
function writeDocs(summary: Summary): void {
  const inTree = listTestFiles().length;
  const named = Math.min(SLOWEST, summary.files);
  if (Math.abs(summary.files - inTree) > named) {
    throw new Error(
      `not writing ${DOCS_FILE}: the run has ${summary.files} test files, the tree ${inTree} ` +
        `(a partial run? the table may be off by at most the ${named} files it names)`,
    );
  }
  const path = join(repositoryRoot, DOCS_FILE);
  const doc = existsSync(path) ? readFileSync(path, 'utf8') : '# Tests\n';
  writeFileSync(path, replaceDocsBlock(doc, renderDocsBlock(summary)));
  console.log(`\nWrote the generated block of ${DOCS_FILE}.`);
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  let code = 0;
  let source = options.from;
  if (!source) {
    // An earlier run's report must not pass for this one's if vitest dies before writing.
    rmSync(options.out, { force: true });
    code = await runVitest(options.out, options.vitestArgs);
    source = options.out;
    if (!existsSync(source)) {
      console.error(`vitest exited with ${code} and wrote no report to ${source}`);
      return code || 1;
    }
  }
  const summary = summarize(readRun(JSON.parse(readFileSync(source, 'utf8'))));
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  print(summary, options.top, source);
  if (options.writeDocs) writeDocs(summary);
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);

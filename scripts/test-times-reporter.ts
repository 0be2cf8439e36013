/**
 * The vitest reporter of `npm run test:times` (scripts/test-times.ts). vitest's own JSON reporter
 * times a file from its first test's start to its last test's end, which leaves out the file's
 * start-up, imports and `beforeAll`/`afterAll` hooks: an e2e file's serverless-offline start does
 * not count there. This one takes each file's whole time in its worker (vitest's module
 * diagnostic: preparing the worker, the environment, the setup files, importing and collecting,
 * then every hook and test) and writes it, with repository paths only, to TEST_TIMES_OUTPUT.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import type { ReporterFile, ReporterOutput } from './test-times-summary.ts';

export default class TestTimesReporter implements Reporter {
  private startTime = Date.now();
  private root = process.cwd();
  /** When each module's end reached this process, by module id. */
  private readonly ends = new Map<string, number>();

  onInit(vitest: Vitest): void {
    this.startTime = Date.now();
    this.root = vitest.config.root;
  }

  onTestModuleEnd(module: TestModule): void {
    this.ends.set(module.id, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const endTime = Date.now();
    const files = modules.map((module) => this.file(module, endTime));
    // REPORT_FORMAT of test-times-summary.ts, which is not imported here: it loads vitest.config.ts.
    const output: ReporterOutput = { format: 'test-times/1', startTime: this.startTime, endTime, files };
    const target = resolve(this.root, process.env.TEST_TIMES_OUTPUT ?? '.test-times/last-run.json');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `${JSON.stringify(output, null, 1)}\n`);
  }

  private file(module: TestModule, runEnd: number): ReporterFile {
    const d = module.diagnostic();
    const end = this.ends.get(module.id) ?? runEnd;
    const worked =
      d.prepareDuration + d.environmentSetupDuration + d.setupDuration + d.collectDuration + d.duration;
    let testsStart = Number.POSITIVE_INFINITY;
    let testsEnd = 0;
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed' || state === 'failed') counts[state]++;
      else counts.skipped++;
      const timing = test.diagnostic();
      if (!timing) continue;
      testsStart = Math.min(testsStart, timing.startTime);
      testsEnd = Math.max(testsEnd, timing.startTime + timing.duration);
    }
    if (testsStart === Number.POSITIVE_INFINITY) testsStart = testsEnd = end;
    return {
      path: relative(this.root, module.moduleId).split(sep).join('/'),
      project: module.project.name,
      start: Math.round(end - worked),
      end,
      testsStart: Math.round(testsStart),
      testsEnd: Math.round(testsEnd),
      ...counts,
    };
  }
}

/**
 * `npm run bench:console`: the web console's first render of Fleet with CONSOLE_NODES (10,000)
 * nodes in one org, on this machine: the Exchange's handlers over HTTP in this process
 * (test/support/exchange-http.ts) on the benchmark's own DynamoDB Local, the built console, and
 * Debian's Chromium through playwright-core. Prints the first Fleet after start (sign-in and the
 * summary computed), RUNS (5) reloads (navigation → Fleet's numbers on screen, the summary kept by
 * the instance), and the summary's own computation uncached.
 * Target (issue 38): ≤ 1 s. docs/benchmarks.md, "Web console".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBenchDynamo } from './env.ts';

const NODES = Number(process.env.CONSOLE_NODES ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 5);

// DynamoDB Local on a loaded laptop answers some calls after more than the 4 s that bounds a call
// on AWS (tables/client.ts), as the tests allow too (test/setup-env.ts).
process.env.DYNAMODB_REQUEST_TIMEOUT_MS ??= '60000';
const dynamo = await startBenchDynamo();
const dir = mkdtempSync(join(tmpdir(), 'bench-console-'));
let stopServer: (() => Promise<void>) | undefined;
let closeBrowser: (() => Promise<void>) | undefined;
try {
  // Only now: tables/client.ts reads the environment set above when it loads.
  const { tableName } = await import('#tables/client');
  const { createTableIfMissing } = await import('#tables/create-table');
  const { bootstrap } = await import('#tables/bootstrap');
  const { createOrg, createUser } = await import('../test/support/identities.ts');
  const { seedConsoleNodes } = await import('../test/support/console-fleet.ts');
  const { startExchangeHttp } = await import('../test/support/exchange-http.ts');
  const { launchChromium, signInThroughPage, watchPage } = await import('../test/support/browser.ts');
  const { buildConsole } = await import('../scripts/build-console.ts');

  await createTableIfMissing(tableName(), { stream: false });
  await bootstrap();
  await createOrg('fleet');
  const admin = await createUser('fleet', 'admin', { admin: true });
  const now = Date.now();
  const seeding = performance.now();
  const ages = [15, 45, 90, 400, 2000, 7200, 200_000];
  await seedConsoleNodes(
    'fleet',
    Array.from({ length: NODES }, (_, i) => ({
      id: `node-${String(i).padStart(5, '0')}`,
      owner: 'fleet/admin',
      arch: ['amd64', 'arm64', 'arm'][i % 3],
      agentVersion: i % 10 === 0 ? '2.30.0' : '2.31.0',
      ...(i % 50 === 49 ? {} : { seenAgo: ages[i % ages.length] }),
      ...(i % 100 === 7 ? { errors: [{ event_code: 'image_load_failed', message: 'pull failed' }] } : {}),
    })),
    now,
  );
  console.log(`[bench] seeded ${NODES} nodes in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

  const built = await buildConsole(join(dir, 'dist'));
  process.env.EXCHANGE_CONSOLE_DIR = built.dir;
  const server = await startExchangeHttp();
  stopServer = () => server.close();

  const browser = await launchChromium();
  closeBrowser = () => browser.close();
  const page = await (await browser.newContext()).newPage();
  const watched = await watchPage(page);
  // Cold: the first Fleet after the Exchange started (no summary computed yet), sign-in included.
  const coldStart = performance.now();
  await signInThroughPage(page, server.baseUrl, admin.user, admin.secret);
  await page.getByTestId('tile-total').waitFor({ timeout: 300_000 });
  const cold = performance.now() - coldStart;
  // Warm: reloads within the 30 s an instance keeps a summary (functions/console/shared/summaries.ts).
  const renders: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await page.reload();
    await page.getByTestId('tile-total').waitFor({ timeout: 120_000 });
    renders.push(performance.now() - started);
    const shown = await page.getByTestId('tile-total').locator('strong').textContent();
    if (shown !== String(NODES)) throw new Error(`Fleet shows ${shown} nodes, not ${NODES}`);
  }
  // The summary's own computation (every node read), uncached, in this process.
  const { fleetSummary } = await import('../functions/console/shared/summaries.ts');
  const api: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const summary = await fleetSummary('fleet', undefined, Date.now());
    if (summary.total !== NODES) throw new Error(`the summary counts ${summary.total} nodes, not ${NODES}`);
    api.push(performance.now() - started);
  }
  // A new instance (nothing in memory): the page's first request takes the summary kept in the
  // table, then asks for a fresh one.
  const { forgetFleetSummaries } = await import('../functions/console/shared/summaries.ts');
  const restarts: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    forgetFleetSummaries();
    const fresh = await (await browser.newContext()).newPage();
    const started = performance.now();
    await signInThroughPage(fresh, server.baseUrl, admin.user, admin.secret);
    await fresh.getByTestId('tile-total').waitFor({ timeout: 120_000 });
    restarts.push(performance.now() - started);
    await fresh.context().close();
  }
  if (watched.problems.length > 0) throw new Error(`the page reported: ${watched.problems.join('; ')}`);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
  console.log(`\nWeb console, ${NODES} nodes in one org (${(built.gzipTotal / 1024).toFixed(1)} KB gzip):`);
  console.log(`  fleet summary computed (every node read): median ${median(api).toFixed(0)} ms (${ms(api)})`);
  console.log(`  Fleet, first after start (sign-in, summary computed): ${cold.toFixed(0)} ms`);
  console.log(
    `  Fleet, reload → numbers on screen (summary kept 30 s): median ${median(renders).toFixed(0)} ms (${ms(renders)})`,
  );
  console.log(
    `  Fleet on a new instance, sign-in included (the summary kept in the table): median ${median(restarts).toFixed(0)} ms (${ms(restarts)})`,
  );
  console.log(
    `  target ≤ 1000 ms: reload ${median(renders) <= 1000 ? 'met' : 'missed'}, new instance ${median(restarts) <= 1000 ? 'met' : 'missed'}, first ever ${cold <= 1000 ? 'met' : 'missed'}`,
  );
} finally {
  await closeBrowser?.();
  await stopServer?.();
  await dynamo.stop();
  rmSync(dir, { recursive: true, force: true });
}

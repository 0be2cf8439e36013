/**
 * The web console in a real browser (Debian's Chromium through playwright-core) against the
 * Exchange's handlers over HTTP in this process (test/support/in-process-exchange.ts) and this
 * file's DynamoDB Local table: sign in; Fleet's numbers equal the API's; filter and open a node;
 * a deployment's counts and skip reasons; a rollout paused from the page is paused in the API; a
 * plain user sees no admin action; the Secrets page never receives a secret value. Every page is
 * watched: a console error, an uncaught error or a CSP violation fails the test. Screenshots go to
 * CONSOLE_SCREENSHOTS_DIR (docs/console/ when refreshing the docs), else a temporary folder.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import { localKeyProvider } from '#lib/secrets/local-key-provider';
import { insertAgbotPolicy } from '#tables/agbot/policy-records';
import { dynamoAgbotStore } from '#tables/agbot-state/store';
import { launchChromium, type PageProblems, signInThroughPage, watchPage } from '#test/support/browser';
import { seedDeploymentPolicy, seedManagementPolicy, seedPattern, seedService } from '#test/support/catalog';
import { seedConsoleNodes } from '#test/support/console-fleet';
import { createAgbot, createOrg, createUser } from '#test/support/identities';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { buildConsole } from '../../../scripts/build-console.ts';

const keyDir = mkdtempSync(join(tmpdir(), 'console-key-'));
const built = mkdtempSync(join(tmpdir(), 'console-dist-'));
const exchange = useInProcessExchange({
  env: {
    EXCHANGE_CONSOLE_DIR: join(built, 'dist'),
    EXCHANGE_SECRETS_PROVIDER: 'local',
    EXCHANGE_SECRETS_MASTER_KEY_FILE: join(keyDir, 'master-key'),
  },
});
const shots = process.env.CONSOLE_SCREENSHOTS_DIR || mkdtempSync(join(tmpdir(), 'console-shots-'));
mkdirSync(shots, { recursive: true });

type Auth = { user: string; secret: string };
const SECRET_VALUE = 'never-show-me-7f3a9c';
const NEW_SECRET_VALUE = 'typed-in-the-form-41b2';
let admin: Auth;
let plain: Auth;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let watched: PageProblems;

const api = async (path: string, auth: Auth = admin) => {
  const answer = await exchange.http('GET', path, { auth });
  expect(answer.status, path).toBe(200);
  return answer.body;
};

beforeAll(async () => {
  await buildConsole(join(built, 'dist'));
  await createOrg('acme');
  admin = await createUser('acme', 'admin', { admin: true });
  plain = await createUser('acme', 'plain');
  const serving = await createAgbot('acme', 'serving', 'acme/admin');
  const now = Date.now();
  const node = (i: number) => `n${String(i).padStart(2, '0')}`;
  await seedConsoleNodes(
    'acme',
    [
      ...Array.from({ length: 12 }, (_, i) => ({
        id: node(i),
        owner: i < 4 ? 'acme/plain' : 'acme/admin',
        arch: i % 3 === 0 ? 'arm64' : 'amd64',
        agentVersion: i % 2 ? '2.31.0' : '2.30.1',
        seenAgo: [20, 40, 600, 4000, 200_000][i % 5],
      })),
      { id: 'n90-never', owner: 'acme/admin' },
      { id: 'n91-draft', owner: 'acme/admin', registered: false },
      {
        id: 'n92-broken',
        owner: 'acme/admin',
        seenAgo: 30,
        name: '<img src=x onerror=alert(1)>',
        errors: [{ event_code: 'image_load_failed', message: 'pull of web:2.0 failed' }],
      },
      { id: 'n93-broken', owner: 'acme/admin', seenAgo: 90_000, errors: [{ message: 'disk full' }] },
    ],
    now,
  );
  await seedService('acme', { url: 'web', version: '1.0.0', arch: 'amd64' });
  await seedService('acme', { url: 'web', version: '2.0.0', arch: 'amd64' });
  await seedService('acme', { url: 'web', version: '2.0.0', arch: 'arm64' });
  await seedDeploymentPolicy('acme', 'web');
  const web = { serviceUrl: 'web', serviceOrgid: 'acme', serviceArch: 'amd64', serviceVersions: [] };
  await seedPattern('acme', 'edge', { services: [web] });
  const store = dynamoAgbotStore(BUILT_IN_AGBOT, () => localKeyProvider(Buffer.alloc(32, 1)));
  await store.savePolicyStatus({
    policy: 'acme/web',
    search: { at: now - 5000, full: true, found: 14, matched: 11, skipped: 3 },
    skipped: [
      {
        node: 'acme/n03',
        reason: 'node policy does not satisfy the constraint purpose == "web"',
        since: now - 60_000,
      },
      {
        node: 'acme/n06',
        reason: 'node policy does not satisfy the constraint purpose == "web"',
        since: now - 60_000,
      },
      { node: 'acme/n09', reason: 'service arch amd64 is not arm64', since: now - 60_000 },
    ],
  });
  await insertAgbotPolicy({
    org: 'acme',
    id: 'serving',
    policyId: 'acme_*_acme',
    businessPolOrgid: 'acme',
    businessPol: '*',
    nodeOrgid: 'acme',
    lastUpdated: new Date().toISOString(),
  });
  const rollout = '/v1/orgs/acme/business/policies/web/rollout';
  const plan = { waves: [{ name: 'canary', nodes: 1, maxFailures: 0 }, {}], onAbort: 'rollback' };
  expect((await exchange.http('PUT', rollout, { auth: admin, body: plan })).status).toBe(201);
  const counts = {
    targeted: 11,
    waiting: 9,
    deploying: 1,
    verifying: 0,
    succeeded: 1,
    failed: 0,
    offline: 0,
    left: 0,
    reverting: 0,
    rolledBack: 0,
  };
  const status = {
    state: 'running',
    target: '2.0.0',
    baseline: ['1.0.0'],
    wave: { index: 0, name: 'canary', of: 2 },
    counts,
    failures: {},
    failureRate: { measured: 0, threshold: 0, verdicts: 1, failures: 0, minVerdicts: 1 },
    plan: { lastUpdated: 'x', waves: [{ index: 0, name: 'canary', count: 1, nodes: ['acme/n01'] }] },
  };
  expect((await exchange.http('PUT', `${rollout}/status`, { auth: serving, body: status })).status).toBe(201);
  // An agent upgrade job that failed on n92-broken: its management status and its change row.
  await seedManagementPolicy('acme', 'upgrade-2-31');
  const job = { status: 'failed', errorMessage: 'download of 2.31.0 failed' };
  const upgraded = await exchange.http(
    'PUT',
    '/v1/orgs/acme/nodes/n92-broken/managementStatus/upgrade-2-31',
    {
      auth: admin,
      body: { agentUpgradePolicyStatus: { scheduledTime: new Date(now).toISOString(), ...job } },
    },
  );
  expect(upgraded.status).toBe(201);
  const secret = await exchange.http('PUT', '/v1/orgs/acme/secrets/db-password', {
    auth: admin,
    body: { key: 'db-password', value: SECRET_VALUE },
  });
  expect(secret.status).toBe(201);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  rmSync(keyDir, { recursive: true, force: true });
  rmSync(built, { recursive: true, force: true });
  if (!process.env.CONSOLE_SCREENSHOTS_DIR) rmSync(shots, { recursive: true, force: true });
});

async function open(auth: Auth): Promise<void> {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  // Bounds a failure only (each wait is on an element or a URL), below the test's own deadline.
  page.setDefaultTimeout(40_000);
  watched = await watchPage(page);
  await signInThroughPage(page, exchange.baseUrl, auth.user, auth.secret);
}

/**
 * Upstream answers "none" with a 404 for a node's policy, status and management status (docs/exchange.md): the
 * browser logs each as a failed load. Those, and only those, are not problems.
 */
const NONE_404 = /\/v1\/orgs\/[^/]+\/nodes\/[^/]+\/(policy|status|managementStatus)$/;

afterEach(async () => {
  const expected404s = (watched?.responses ?? []).filter(
    (r) => r.status === 404 && NONE_404.test(new URL(r.url).pathname),
  );
  let allowed = expected404s.length;
  const problems = (watched?.problems ?? []).filter(
    (problem) => !(problem.includes('status of 404') && allowed-- > 0),
  );
  expect(await context?.cookies(), 'cookies').toEqual([]);
  await context?.close();
  const failed = (watched?.responses ?? []).filter((r) => r.status >= 400).map((r) => `${r.status} ${r.url}`);
  expect(
    problems,
    `console errors, page errors and CSP violations (answers ≥ 400: ${failed.join(', ')})`,
  ).toEqual([]);
});

const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
const go = (hash: string) => page.evaluate(`location.hash = ${JSON.stringify(hash)}`);

describe('the console, signed in as an org admin', () => {
  it("shows Fleet's numbers as the API counts them", async () => {
    await open(admin);
    const fleet = await api('/v1/console/orgs/acme/fleet');
    await page.getByTestId('tile-total').waitFor();
    expect(await page.getByTestId('tile-total').locator('strong').textContent()).toBe(String(fleet.total));
    expect(fleet.total).toBe(16);
    for (const state of ['online', 'late', 'offline', 'never-seen', 'unregistered'])
      expect(await page.getByTestId(`tile-${state}`).locator('strong').textContent(), state).toBe(
        String(fleet.byState[state] ?? 0),
      );
    expect(await page.getByTestId('tile-errors').locator('strong').textContent()).toBe('2');
    expect(await page.getByTestId('error-nodes').textContent()).toContain('pull of web:2.0 failed');
    await shot('fleet');
  });

  it('is usable from the keyboard: Tab reaches the navigation, Enter follows it', async () => {
    await open(admin);
    await page.getByTestId('tile-total').waitFor();
    let focused = '';
    for (let presses = 0; presses < 10 && focused !== 'Nodes'; presses++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate('document.activeElement?.textContent ?? ""');
    }
    expect(focused).toBe('Nodes');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toMatch(/#\/nodes$/);
    await page.getByTestId('nodes-table').waitFor();
    for (const name of [
      'State',
      'Architecture',
      'Agent version',
      'Pattern',
      'Owner',
      'Id starts with',
      'Errors',
    ])
      expect(await page.getByLabel(name).count(), name).toBe(1);
  });

  it('filters nodes (kept in the URL), pages them and opens one; hostile names stay text', {
    timeout: 120_000,
  }, async () => {
    await open(admin);
    await page.getByTestId('tile-errors').click();
    await expect.poll(() => page.url()).toMatch(/#\/nodes\?errors=true$/);
    const rows = page.getByTestId('nodes-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.getByTestId('nodes-table').textContent()).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('img').count()).toBe(0);
    await go('#/nodes');
    await page.getByLabel('State').selectOption('offline');
    await page.getByLabel('Architecture').fill('amd64');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.url()).toMatch(/state=offline/);
    expect(page.url()).toContain('arch=amd64');
    const listed = await api('/v1/console/orgs/acme/nodes?state=offline&arch=amd64');
    await expect.poll(() => rows.count()).toBe(listed.nodes.length);
    expect(await rows.locator('th').allTextContents()).toEqual(listed.nodes.map((n: { id: string }) => n.id));
    await go('#/nodes?limit=5');
    await expect.poll(() => rows.count()).toBe(5);
    await page.getByTestId('next-page').click();
    await expect.poll(() => page.url()).toMatch(/after=n04/);
    await expect.poll(async () => (await rows.locator('th').allTextContents())[0]).toBe('acme/n05');
    await go('#/nodes');
    await expect.poll(() => rows.count()).toBe(16);
    await shot('nodes');
    await page.getByRole('link', { name: 'acme/n92-broken' }).click();
    await page.getByTestId('node-facts').waitFor();
    expect(await page.getByTestId('node-errors').textContent()).toContain(
      'What to do: The image could not be pulled',
    );
    expect(await page.getByTestId('node-management').textContent()).toContain('download of 2.31.0 failed');
    expect(await page.getByTestId('node-changes').locator('li').first().textContent()).toContain(
      'nodemgmtpolstatus',
    );
    await shot('node');
  });

  it("shows a deployment's counts and skip reasons as the agbot's status has them", async () => {
    await open(admin);
    await go('#/deployments');
    const status = await api('/v1/orgs/acme/agbotstatus/policies/web');
    await page.getByTestId('deployment-web').waitFor();
    await page.getByTestId('deployment-pattern-edge').waitFor();
    // One request answers every policy and pattern (no request per policy).
    const asked = watched.responses.map((r) => new URL(r.url).pathname);
    expect(asked.filter((path) => /deployments|agbotstatus|rollout|business/.test(path))).toEqual([
      '/v1/console/orgs/acme/deployments',
    ]);
    for (const key of ['matched', 'proposed', 'agreed', 'running', 'failing'])
      expect(await page.getByTestId(`${key}-web`).textContent(), key).toBe(String(status[key]));
    expect(await page.getByTestId('skipped-web').textContent()).toBe('3');
    const skips = await page.getByTestId('skips-web').locator('li').allTextContents();
    expect(skips).toHaveLength(2);
    expect(skips[0]).toContain('2 nodes: node policy does not satisfy the constraint purpose == "web"');
    expect(skips[1]).toContain('1 node: service arch amd64 is not arm64');
    await shot('deployments');
  });

  it('pauses a rollout from the page, and the API has it paused', async () => {
    await open(admin);
    await go('#/deployments');
    await page.getByTestId('rollout-web').waitFor();
    expect(await page.getByTestId('rollout-state-web').textContent()).toBe('running');
    await page.getByTestId('rollout-actions-web').getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.getByTestId('rollout-last-web').textContent()).toBe('pause');
    const rollout = await api('/v1/orgs/acme/business/policies/web/rollout');
    expect(rollout.control.pause?.seq).toBeGreaterThan(0);
    expect(rollout.control.resume).toBeUndefined();
  });

  it('lists secret names and sets a value without ever receiving one', async () => {
    await open(admin);
    await go('#/secrets');
    await expect.poll(() => page.getByTestId('secret-names').textContent()).toContain('db-password');
    await shot('secrets');
    await page.getByLabel('Name').fill('api-token');
    await page.getByLabel('Value').fill(NEW_SECRET_VALUE);
    await page.getByRole('button', { name: 'Set value' }).click();
    await expect.poll(() => page.getByTestId('secret-names').textContent()).toContain('api-token');
    expect(await page.getByLabel('Value').inputValue()).toBe('');
    const names = await api('/v1/orgs/acme/secrets');
    expect(names).toEqual(['api-token', 'db-password']);
    for (const value of [SECRET_VALUE, NEW_SECRET_VALUE]) {
      expect(await page.content()).not.toContain(value);
      expect(watched.responses.filter((r) => r.body.includes(value)).map((r) => r.url)).toEqual([]);
    }
    expect(
      watched.responses.some(
        (r) => /\/secrets\/[^/]+$/.test(new URL(r.url).pathname) && !r.url.includes('api-token'),
      ),
    ).toBe(false);
  });

  it('shows services and users; signing out empties the tab', async () => {
    await open(admin);
    await go('#/services');
    await page.getByRole('heading', { name: 'web' }).waitFor();
    expect(await page.locator('main').textContent()).toContain(
      'Deployed by: policy acme/web, pattern acme/edge',
    );
    await shot('services');
    await go('#/users');
    await page.getByTestId('users-table').waitFor();
    expect(await page.getByTestId('users-table').textContent()).toContain('acme/plain');
    await shot('users');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });
});

describe('the console, signed in as root', () => {
  it('picks the org to look at', async () => {
    await open({ user: 'root/root', secret: exchange.rootPassword });
    await page.getByLabel('Organization').selectOption('acme');
    await expect.poll(() => page.getByTestId('tile-total').locator('strong').textContent()).toBe('16');
  });
});

describe('the console, signed in as a plain user', () => {
  it('shows their own nodes and no admin action', async () => {
    await open(plain);
    await page.getByTestId('tile-total').waitFor();
    expect(await page.getByTestId('tile-total').locator('strong').textContent()).toBe('4');
    await go('#/nodes');
    await expect.poll(() => page.getByTestId('nodes-table').locator('tbody tr').count()).toBe(4);
    expect(await page.getByTestId('bulk-actions').count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    await go('#/deployments');
    await page.getByTestId('rollout-web').waitFor();
    expect(await page.getByTestId('rollout-actions-web').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    await go('#/secrets');
    await page.getByTestId('secret-names').waitFor();
    expect(await page.getByRole('button', { name: 'Set value' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Users and orgs' }).count()).toBe(0);
  });
});

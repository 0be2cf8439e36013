import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * Debian's Chromium (`apt-get install chromium`; .ci/run installs it) driven by playwright-core: no
 * browser download. Playwright adds `--headless` and `--no-sandbox` itself (its `chromiumSandbox`
 * defaults to false), which is what running as root in a container needs.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM });

/** What went wrong in a page: console errors, uncaught exceptions, CSP violations. */
export interface PageProblems {
  problems: string[];
  /** Every response the page received: its URL and body (to prove what it never received). */
  responses: { url: string; status: number; body: string }[];
}

/**
 * Watches `page` for console errors (a CSP violation is one), uncaught errors and
 * `securitypolicyviolation` events, and records every response body.
 */
export async function watchPage(page: Page): Promise<PageProblems> {
  const seen: PageProblems = { problems: [], responses: [] };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      seen.problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => seen.problems.push(`page error: ${error.message}`));
  page.on('response', async (response) => {
    const body = await response.text().catch(() => '');
    seen.responses.push({ url: response.url(), status: response.status(), body });
  });
  await page.exposeFunction('__reportCspViolation', (text: string) =>
    seen.problems.push(`CSP violation: ${text}`),
  );
  // Run by the browser through DevTools before the page's scripts (outside the page's CSP).
  await page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (e) => window.__reportCspViolation(e.violatedDirective + ' ' + e.blockedURI));",
  });
  return seen;
}

/** Signs in through the page's form and waits for the signed-in header. */
export async function signInThroughPage(
  page: Page,
  baseUrl: string,
  user: string,
  password: string,
): Promise<void> {
  const [org = '', name = ''] = user.split('/');
  await page.goto(`${baseUrl}/v1/console/index.html`);
  await page.getByLabel('Organization').fill(org);
  await page.getByLabel('User', { exact: true }).fill(name);
  await page.getByLabel('Password or API key').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('who').waitFor();
}

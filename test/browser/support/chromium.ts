import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's Chromium for the browser tests. Without it a browser test file is skipped locally and
 * fails under CI (where .ci/run installs it).
 */
export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = 'test-artifacts';
export const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing: the browser test cannot run under CI`);

export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  await mkdir(ARTIFACTS, { recursive: true });
  return browser;
}

/**
 * Opens `url` with script errors, CSP violations and failed requests collected into `errors`;
 * /auth/me answering 401 is how the page learns that nobody is logged in, so that one is expected.
 * Resolves once the page's socket is live.
 */
export async function openLivePage(page: Page, url: string, errors: string[]): Promise<Page> {
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  page.on('response', (response) => {
    const expected = response.status() === 401 && new URL(response.url()).pathname === '/auth/me';
    if (response.status() >= 400 && !expected) errors.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(url);
  await page.locator('#connection[data-state="live"]').waitFor();
  return page;
}

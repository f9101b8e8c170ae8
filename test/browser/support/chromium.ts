import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { chromium, type Browser } from 'playwright-core';

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

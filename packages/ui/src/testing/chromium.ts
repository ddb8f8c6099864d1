import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Debian's Chromium, which the browser tests drive (`apt-get install chromium`). */
export const CHROMIUM = '/usr/bin/chromium';

/** Flags that keep Chromium off the network and quiet in a container. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Why the browser tests cannot run here, or `undefined` when Chromium is installed. With
 * `TEAMKIT_TEST_REQUIRE_PROGRAMS=1` (CI) a missing Chromium is a failure, not a skip.
 */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `${CHROMIUM} is not installed (apt-get install chromium)`;
  if (process.env.TEAMKIT_TEST_REQUIRE_PROGRAMS === '1')
    throw new Error(`TEAMKIT_TEST_REQUIRE_PROGRAMS=1 but ${reason}`);
  process.stderr.write(`skipping browser tests: ${reason}\n`);
  return reason;
}

/** Starts headless Chromium through playwright-core (it downloads no browser). */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); CI installs it, Playwright's own builds are not used. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags for a quiet, deterministic headless Chromium as root in a container: no sandbox (root),
 * no GPU, and none of the background traffic (QUIC probes, component updates, sync) that would
 * add requests the tests and the bench do not expect.
 */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Why the browser suite cannot run here, or undefined when it can. */
export function chromiumMissingReason(): string | undefined {
  return existsSync(chromiumPath)
    ? undefined
    : `${chromiumPath} not found (install Debian's chromium package, or set CHROMIUM_PATH)`;
}

/** One browser per test file; each test opens its own context (fresh storage, as a new browser). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumFlags });
}

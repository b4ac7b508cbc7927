import { createTestDatabase } from '@issuer/test-support';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { chromiumMissingReason, launchChromium } from './chromium';
import { type Portal, startPortal } from './portal';

export interface BrowserSuite {
  portal: Portal;
  browser: Browser;
}

/**
 * A browser-suite file: one real server and one Chromium shared by its tests, started before them
 * and stopped after. Without Chromium the file registers its tests as skipped (the run's global
 * setup prints the one line saying why).
 */
export function describeInBrowser(name: string, body: (suite: BrowserSuite) => void): void {
  const missing = chromiumMissingReason();
  const suite = {} as BrowserSuite;
  describe.skipIf(missing !== undefined)(name, () => {
    beforeAll(async () => {
      suite.portal = await startPortal(await createTestDatabase());
      suite.browser = await launchChromium();
    });
    afterAll(async () => {
      await suite.browser?.close();
      await suite.portal?.stop();
    });
    body(suite);
  });
}

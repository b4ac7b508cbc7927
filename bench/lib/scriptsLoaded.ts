import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';

export interface ScriptsLoaded {
  files: number;
  /** Sum of each script's body gzip-compressed at zlib's default level, as Vite's build report. */
  gzipBytes: number;
}

/**
 * The JavaScript the browser actually fetched while `visit` ran and until the network went quiet
 * (lazy route chunks included): every response of resource type `script`, as Playwright saw it.
 */
export async function scriptsLoadedBy(
  page: Page,
  visit: () => Promise<void>,
): Promise<ScriptsLoaded> {
  const bodies: Promise<Buffer>[] = [];
  const onResponse = (response: import('playwright-core').Response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.body());
  };
  page.on('response', onResponse);
  try {
    await visit();
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('response', onResponse);
  }
  const loaded = await Promise.all(bodies);
  return {
    files: loaded.length,
    gzipBytes: loaded.reduce((sum, body) => sum + gzipSync(body).length, 0),
  };
}

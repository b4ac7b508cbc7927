import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromiumFlags, chromiumPath } from '../../e2e/support/chromium';

export type FormFactor = 'mobile' | 'desktop';

export interface LighthouseFigures {
  firstContentfulPaintMs: number;
  /** The performance category's score, 0 to 1. */
  performanceScore: number;
}

/**
 * One Lighthouse performance run of `url` in a fresh Debian Chromium: the default (mobile, with
 * simulated slow 4G and a 4× slower CPU) or the desktop profile.
 */
export async function runLighthouse(
  url: string,
  formFactor: FormFactor,
): Promise<LighthouseFigures> {
  const chrome = await launch({ chromePath: chromiumPath, chromeFlags: chromiumFlags });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    const fcp = lhr?.audits['first-contentful-paint']?.numericValue;
    const score = lhr?.categories.performance?.score;
    if (lhr?.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    if (typeof fcp !== 'number' || typeof score !== 'number')
      throw new Error(`Lighthouse gave no first contentful paint or score for ${url}`);
    return { firstContentfulPaintMs: fcp, performanceScore: score };
  } finally {
    chrome.kill();
  }
}

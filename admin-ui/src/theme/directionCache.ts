import createCache, { type EmotionCache } from '@emotion/cache';
import type { Direction } from '../i18n/locales';

const leftToRight = createCache({ key: 'mui' });
let rightToLeft: EmotionCache | undefined;

/**
 * Right-to-left flips every MUI style (margins, paddings, positions) through the stylis RTL
 * plugin. The plugin (cssjanus) loads with a right-to-left language's messages, so left-to-right
 * readers never download it.
 */
export async function loadRightToLeftCache(): Promise<void> {
  if (rightToLeft) return;
  const [{ default: rtlPlugin }, { prefixer }] = await Promise.all([
    import('@mui/stylis-plugin-rtl'),
    import('stylis'),
  ]);
  rightToLeft = createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] });
}

/** The direction's cache; a right-to-left one exists once its language's messages loaded. */
export function emotionCacheFor(direction: Direction): EmotionCache {
  return direction === 'rtl' ? (rightToLeft ?? leftToRight) : leftToRight;
}

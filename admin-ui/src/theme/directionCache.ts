import createCache, { type EmotionCache } from '@emotion/cache';
import rtlPlugin from '@mui/stylis-plugin-rtl';
import { prefixer } from 'stylis';

/** Right-to-left flips every MUI style (margins, paddings, positions) through the stylis plugin. */
export const emotionCaches: Record<'ltr' | 'rtl', EmotionCache> = {
  ltr: createCache({ key: 'mui' }),
  rtl: createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }),
};

import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { freshPage, open, seedStorage, sidewaysOverflow, tokenKey } from './support/screens';
import { describeInBrowser } from './support/suite';

/** Moves the single-page app to `path` without reloading it (react-router follows popstate). */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((next) => {
    window.history.pushState({}, '', next);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

const languages = [
  {
    locale: 'tr',
    width: 390,
    failed: 'Bu liste yüklenemedi',
    unreachable: 'Portalın sunucusuna ulaşılamıyor. Bağlantınızı kontrol edip tekrar deneyin.',
    retry: 'Tekrar dene',
    empty: ['Henüz müşteri yok', 'Henüz işlem yok'],
  },
  {
    locale: 'ar',
    width: 1280,
    failed: 'تعذّر تحميل هذه القائمة',
    unreachable: 'تعذّر الوصول إلى خادم البوابة. تحقّق من اتصالك وحاول مرة أخرى.',
    retry: 'إعادة المحاولة',
    empty: ['لا يوجد عملاء بعد', 'لا توجد معاملات بعد'],
  },
] as const;

describeInBrowser('a server out of reach', (suite) => {
  it.each(languages)(
    'a list that cannot load says so in $locale, not that it is empty, and loads on Try again',
    async (language) => {
      const company = await suite.portal.registerCompany();
      await suite.portal.verify(company);
      await suite.portal.api('POST', '/customers', {
        token: company.token,
        body: { email: `reach-${Date.now().toString(36)}@investors.test`, name: 'Ada' },
      });
      const { context, page } = await freshPage(suite.browser, {
        width: language.width,
        height: 844,
      });
      await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: language.locale });
      await open(page, suite.portal, '/customers/all');
      await page.getByText('Ada').first().waitFor();
      // From here on every call to the API fails as a dropped connection does. When the server
      // is back, live updates stay cut: their reconnection would reload the list by itself, and
      // this test is of the button.
      let reachable = false;
      await page.route('**/api/**', (route) =>
        reachable && !route.request().url().includes('/api/changes')
          ? route.continue()
          : route.abort('connectionrefused'),
      );
      const alert = page.getByRole('alert').filter({ hasText: language.failed });
      for (const path of ['/transactions/all', '/customers/all']) {
        // The screen left behind must be gone, not read as the next one's.
        const previous = await alert.elementHandle({ timeout: 1 }).catch(() => null);
        await go(page, path);
        await previous?.waitForElementState('hidden');
        await alert.waitFor();
        await expect.poll(() => alert.textContent()).toContain(language.unreachable);
        for (const empty of language.empty) expect(await page.getByText(empty).count()).toBe(0);
        expect(await page.getByText('Failed to fetch').count()).toBe(0);
        expect(await sidewaysOverflow(page)).toEqual([]);
      }
      // Back as the button is pressed: any request before it (a periodic refresh) still fails.
      const retry = page.getByRole('button', { name: language.retry });
      await retry.waitFor();
      reachable = true;
      await retry.click();
      await page.getByText('Ada').first().waitFor();
      expect(await page.getByText(language.failed).count()).toBe(0);
      await context.close();
    },
    90_000,
  );
});

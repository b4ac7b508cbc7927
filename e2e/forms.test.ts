import { expect, it } from 'vitest';
import { fieldMessage, freshPage, open, seedStorage, visible } from './support/screens';
import { describeInBrowser } from './support/suite';

/** The rules the server holds (events/src/rules), as each language says them. */
const languages = {
  English: {
    locale: 'en',
    symbolRules: '2 to 10 letters A–Z or digits 0–9, e.g. MAPL',
    symbolWrong: 'Use 2 to 10 letters A–Z or digits 0–9',
    passwordRules: 'At least 8 characters',
    passwordShort: 'Min character length is 8',
    wrongCredentials: 'Email or password is incorrect',
    symbol: /company symbol/i,
    password: /^password/i,
  },
  Turkish: {
    locale: 'tr',
    symbolRules: '2 ile 10 arasında A–Z harfi veya 0–9 rakamı, ör. MAPL',
    symbolWrong: '2 ile 10 arasında A–Z harfi veya 0–9 rakamı kullanın',
    passwordRules: 'En az 8 karakter',
    passwordShort: 'En az 8 karakter olmalıdır',
    wrongCredentials: 'E-posta veya şifre hatalı',
    symbol: /şirket sembolü/i,
    password: /^şifre/i,
  },
  Arabic: {
    locale: 'ar',
    symbolRules: 'من 2 إلى 10 من الحروف A–Z أو الأرقام 0–9، مثل MAPL',
    symbolWrong: 'استخدم من 2 إلى 10 من الحروف A–Z أو الأرقام 0–9',
    passwordRules: '8 أحرف على الأقل',
    passwordShort: 'الحد الأدنى للطول 8 أحرف',
    wrongCredentials: 'البريد الإلكتروني أو كلمة المرور غير صحيحة',
    symbol: undefined,
    password: undefined,
  },
};

describeInBrowser('forms', (suite) => {
  for (const [language, texts] of Object.entries(languages)) {
    it(`shows the symbol's and the password's rules before submit and holds them on the client (${language})`, async () => {
      const { context, page } = await freshPage(suite.browser);
      await seedStorage(page, suite.portal, { locale: texts.locale });
      let registrations = 0;
      page.on('request', (request) => {
        if (request.url().endsWith('/api/auth/register')) registrations += 1;
      });
      await open(page, suite.portal, '/register');
      // Arabic labels: the inputs in the form's order (name, symbol, email, password, confirm).
      const inputs = page.locator('form input');
      const symbol = texts.symbol ? page.getByLabel(texts.symbol) : inputs.nth(1);
      const password = texts.password ? page.getByLabel(texts.password).first() : inputs.nth(3);
      await visible(symbol);
      expect(await fieldMessage(symbol)).toBe(texts.symbolRules);
      expect(await fieldMessage(password)).toBe(texts.passwordRules);
      // Marked required (react-admin's asterisk) before anything is typed.
      expect(
        await symbol.evaluate((input) => (input as HTMLInputElement).labels?.[0]?.textContent),
      ).toContain('*');

      await inputs.nth(0).fill('Maple Robotics');
      await symbol.fill('m');
      await inputs.nth(2).fill(`cfo-${Date.now().toString(36)}@maple.test`);
      await password.fill('tund');
      await inputs.nth(4).fill('tund');
      await inputs.nth(0).click();
      await expect.poll(() => fieldMessage(symbol)).toBe(texts.symbolWrong);
      await expect.poll(() => fieldMessage(password)).toBe(texts.passwordShort);
      const submit = page.locator('form button[type=submit]');
      expect(await submit.isDisabled()).toBe(true);

      await symbol.fill('mapl');
      await password.fill('long-and-unusual-pass');
      await inputs.nth(4).fill('long-and-unusual-pass');
      await expect.poll(() => submit.isEnabled()).toBe(true);
      expect(registrations).toBe(0);
      await context.close();
    });

    it(`says once, in the reader's language, that the email or password is incorrect (${language})`, async () => {
      const company = await suite.portal.registerCompany();
      const { context, page } = await freshPage(suite.browser);
      await seedStorage(page, suite.portal, { locale: texts.locale });
      await open(page, suite.portal, '/login');
      const inputs = page.locator('form input');
      await visible(inputs.first());
      await inputs.nth(0).fill(company.email);
      await inputs.nth(1).fill('not-the-password');
      await page.locator('form button[type=submit]').click();
      const alerts = page.getByRole('alert');
      await visible(alerts.filter({ hasText: texts.wrongCredentials }));
      await page.waitForTimeout(500);
      expect(await alerts.count()).toBe(1);
      await context.close();
    });
  }
});

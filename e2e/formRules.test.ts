import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  dialogTitled,
  freshPage,
  messageUnder,
  open,
  openDialog,
  seedStorage,
  tokenKey,
  visible,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const phone = { width: 390, height: 844 };

/** The message under a dialog's field, by the field's label. */
const messageOf = (dialog: Locator, label: string) =>
  messageUnder(dialog.getByLabel(label, { exact: true }));

/** Counts the writes the page sends: a form that refuses input itself sends none. */
function countWrites(page: Page) {
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET') writes.push(`${request.method()} ${request.url()}`);
  });
  return writes;
}

describeInBrowser('forms refuse what the API refuses, in the reader’s language', (suite) => {
  it('says so in Turkish before sending: a round’s handle and amounts, a share class’s par value and count, a plan’s period (390 px)', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    await suite.portal.makeIssuer(company);
    await suite.portal.api('POST', '/share-classes', {
      token: company.token,
      body: { name: 'Common', kind: 'common', votesPerShare: 1, authorized: 10_000 },
    });
    const { context, page } = await freshPage(suite.browser, phone);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'tr' });
    const writes = countWrites(page);

    await open(page, suite.portal, '/fundingrounds');
    const round = await openDialog(
      page,
      page.getByRole('button', { name: 'Yeni tur' }),
      'Yeni fonlama turu',
    );
    await round.getByLabel('Kısa ad (adres için)').fill('Seed 2026!');
    await round.getByLabel('Token fiyatı (CAD)').fill('-5');
    await round.getByRole('button', { name: 'Kaydet' }).click();
    await expect
      .poll(() => messageOf(round, 'Kısa ad (adres için)'))
      .toBe('Küçük harf, rakam ve tek tire; örneğin seed-2026');
    expect(await messageOf(round, 'Token fiyatı (CAD)')).toBe(
      '12,50 gibi, sıfırdan büyük bir CAD tutarı',
    );
    // An amount left empty is named as missing, not as malformed.
    expect(await messageOf(round, 'Toplanacak tutar (CAD)')).toBe('Zorunlu');
    // The terms against each other: a maximum below the minimum, a minimum above the raise.
    await round.getByLabel('Toplanacak tutar (CAD)').fill('1000');
    await round.getByLabel('En az yatırım (CAD)').fill('2000');
    await round.getByLabel('En çok yatırım (CAD)').fill('500');
    await round.getByRole('button', { name: 'Kaydet' }).click();
    await expect
      .poll(() => messageOf(round, 'En çok yatırım (CAD)'))
      .toBe('En az yatırımdan düşük olamaz');
    expect(await messageOf(round, 'En az yatırım (CAD)')).toBe('Toplanacak tutardan yüksek olamaz');
    await page.keyboard.press('Escape');

    await open(page, suite.portal, '/captable');
    const shareClass = await openDialog(
      page,
      page.getByRole('button', { name: 'Yeni hisse sınıfı' }),
      'Yeni hisse sınıfı',
    );
    await shareClass.getByLabel('Ad', { exact: true }).fill('Preferred');
    await shareClass.getByLabel('Kayıtlı hisse').fill('0');
    await shareClass.getByLabel('Nominal değer (CAD)').fill('abc');
    await shareClass.getByRole('button', { name: 'Kaydet' }).click();
    await expect
      .poll(() => messageOf(shareClass, 'Nominal değer (CAD)'))
      .toBe('0,0001 gibi, CAD cinsinden ondalıklı bir tutar');
    expect(await messageOf(shareClass, 'Kayıtlı hisse')).toBe(
      '1 ile 1.000.000.000.000.000 arasında bir tam sayı',
    );
    // A decimal comma, as Turkish writes it, is taken.
    await shareClass.getByLabel('Kayıtlı hisse').fill('1000');
    await shareClass.getByLabel('Nominal değer (CAD)').fill('0,0001');
    await shareClass.getByRole('button', { name: 'Kaydet' }).click();
    await shareClass.waitFor({ state: 'hidden' });
    const created = await suite.portal.api<{ name: string; parValue: string | null }[]>(
      'GET',
      '/share-classes',
      { token: company.token },
    );
    expect(created.find((row) => row.name === 'Preferred')?.parValue).toBe('0.0001');
    writes.length = 0;

    await open(page, suite.portal, '/subscriptions');
    const plans = await openDialog(
      page,
      page.getByRole('main').getByRole('button', { name: 'Planlar' }),
      'Planlar',
    );
    await plans.getByRole('button', { name: 'Yeni plan' }).click();
    const plan = dialogTitled(page, 'Yeni plan');
    await visible(plan);
    await plan.getByLabel('Ad', { exact: true }).fill('Premium');
    await plan.getByLabel('Aralık sayısı').fill('13');
    await plan.getByRole('button', { name: 'Kaydet' }).click();
    await expect
      .poll(() => messageOf(plan, 'Aralık sayısı'))
      .toBe('1 ile 12 arasında bir tam sayı: bir dönem en fazla bir yıldır');
    expect(writes.filter((write) => write.includes('/api/plans'))).toEqual([]);
    await context.close();
  });

  it('shows a refused form’s message where it does not cover the dialog’s buttons (Turkish, 390 px)', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await freshPage(suite.browser, phone);
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'tr' });
    await open(page, suite.portal, '/customers');
    const add = await openDialog(
      page,
      page.getByRole('button', { name: 'Müşteri ekle' }).first(),
      'Müşteri ekle',
    );
    // Every field refused: with a message under each, the dialog fills the phone's height.
    await add.getByLabel('Ad', { exact: true }).fill('Ğ'.repeat(101));
    await add.getByLabel('Soyad').fill('Ğ'.repeat(101));
    await add.getByLabel('E-posta').fill('not-an-email');
    await add.getByLabel('Şirket').fill('Ğ'.repeat(201));
    await add.getByLabel('Unvan').fill('Ğ'.repeat(201));
    await add.getByRole('button', { name: 'Müşteri ekle' }).click();
    const toast = page.getByText('Form geçerli değil. Lütfen hataları kontrol edin');
    await visible(toast);
    const toastBox = await toast.boundingBox();
    for (const button of await add.locator('.MuiDialogActions-root button').all()) {
      const box = await button.boundingBox();
      if (!toastBox || !box) throw new Error('toast or button not drawn');
      const apart =
        toastBox.y + toastBox.height <= box.y ||
        box.y + box.height <= toastBox.y ||
        toastBox.x + toastBox.width <= box.x ||
        box.x + box.width <= toastBox.x;
      expect(apart, (await button.textContent()) ?? '').toBe(true);
    }
    await context.close();
  });
});

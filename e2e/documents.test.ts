import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Company, Portal } from './support/portal';
import {
  freshPage,
  open,
  pickOption,
  seedStorage,
  sidewaysOverflow,
  tokenKey,
  visible,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const languages = {
  English: {
    locale: 'en',
    empty: 'No documents yet',
    send: 'Send for signature',
    submit: 'Send',
    customer: 'Customer',
    requests: 'Signature requests',
    signed: 'Signed',
    certificate: 'Certificate',
    signingTitle: 'Documents to sign',
    name: 'Type your full name',
    sign: 'Sign',
    signedBy: 'Signed by Ada Lovelace',
    close: 'Close',
  },
  Arabic: {
    locale: 'ar',
    empty: 'لا توجد مستندات بعد',
    send: 'إرسال للتوقيع',
    submit: 'إرسال',
    customer: 'العميل',
    requests: 'طلبات التوقيع',
    signed: 'وُقّع',
    certificate: 'الشهادة',
    signingTitle: 'مستندات للتوقيع',
    name: 'اكتب اسمك الكامل',
    sign: 'توقيع',
    signedBy: 'وقّعها Ada Lovelace',
    close: 'إغلاق',
  },
} as const;
type Texts = (typeof languages)[keyof typeof languages];

const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };

const pdf = (text: string) =>
  Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\n%%EOF\n`);

async function companyWithCustomer(portal: Portal) {
  const company = await portal.registerCompany();
  await portal.verify(company);
  await portal.api('POST', '/customers', {
    token: company.token,
    body: {
      email: `ada-${Date.now().toString(36)}@investors.test`,
      name: 'Ada',
      lastName: 'Lovelace',
      investorStatus: 'KYC Complete',
    },
  });
  return company;
}

async function checkScreen(page: Page) {
  expect(await sidewaysOverflow(page)).toEqual([]);
  expect(await page.evaluate(() => (document.body.textContent ?? '').includes('%{'))).toBe(false);
}

async function signedIn(
  browser: Parameters<typeof freshPage>[0],
  portal: Portal,
  company: Company,
  texts: Texts,
  viewport: typeof desktop,
) {
  const opened = await freshPage(browser, viewport);
  await seedStorage(opened.page, portal, { [tokenKey]: company.token, locale: texts.locale });
  await open(opened.page, portal, '/documents');
  return opened;
}

/** Upload, send for signature, sign in a second browser, see "signed", download the certificate. */
async function signingRound(
  suite: { portal: Portal; browser: Parameters<typeof freshPage>[0] },
  texts: Texts,
  viewport: typeof desktop,
  linkCustomer = false,
) {
  const company = await companyWithCustomer(suite.portal);
  const { context, page } = await signedIn(suite.browser, suite.portal, company, texts, viewport);
  await visible(page.getByText(texts.empty));
  await checkScreen(page);

  if (linkCustomer) {
    const customer = page.getByRole('combobox', { name: 'Customer (optional)' });
    await pickOption(page, customer, 'Ada', 'Ada Lovelace');
  }
  await page.getByTestId('document-file-input').setInputFiles({
    name: 'purchase-agreement.pdf',
    mimeType: 'application/pdf',
    buffer: pdf('agreement'),
  });
  await visible(page.getByText('purchase-agreement').first());
  if (linkCustomer) {
    await visible(
      page.getByRole('row').filter({ hasText: 'purchase-agreement' }).getByText('Ada Lovelace'),
    );
  }
  await checkScreen(page);

  const documentChoices = page.waitForResponse((response) =>
    response.url().includes('/api/documents?'),
  );
  await page.getByRole('button', { name: texts.send }).first().click();
  const dialog = page.getByRole('dialog');
  const customer = dialog.getByRole('combobox', { name: texts.customer });
  if (linkCustomer) {
    // The document's own customer is the one proposed.
    await expect.poll(() => customer.inputValue()).toBe('Ada Lovelace');
  } else {
    await pickOption(page, customer, 'Ada', 'Ada Lovelace');
  }
  await checkScreen(page);
  // The documents to sign are offered from the company's documents, with no error under them.
  expect((await documentChoices).status()).toBe(200);
  expect(await dialog.locator('.MuiFormHelperText-root.Mui-error').allTextContents()).toEqual([]);
  await dialog.getByRole('button', { name: texts.submit, exact: true }).click();
  const link = await dialog.getByTestId('signing-link').inputValue();
  expect(link).toMatch(/\/sign\/sig_/);
  // Sent: the dialog offers to copy the link and to close, no "Cancel" that reads as an undo.
  expect(await dialog.getByRole('button', { name: /^(Cancel|إلغاء)$/ }).count()).toBe(0);
  await dialog.getByRole('button', { name: texts.close, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });

  // The customer, in another browser, with no account.
  const signer = await freshPage(suite.browser, viewport);
  await signer.page.goto(`${link}?lang=${texts.locale}`);
  await visible(signer.page.getByRole('heading', { name: texts.signingTitle }));
  await visible(signer.page.getByText('purchase-agreement'));
  await checkScreen(signer.page);
  await signer.page.getByLabel(texts.name).fill('Ada Lovelace');
  await signer.page.getByRole('checkbox').check();
  await signer.page.getByRole('button', { name: texts.sign, exact: true }).click();
  await visible(signer.page.getByText(texts.signedBy));
  await checkScreen(signer.page);
  await signer.context.close();

  await page.reload();
  await page.getByRole('tab', { name: texts.requests }).click();
  await expect
    .poll(() => page.getByTestId('signature-status').first().textContent(), { timeout: 15_000 })
    .toBe(texts.signed);
  await checkScreen(page);
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: texts.certificate }).first().click(),
  ]);
  const certificate = JSON.parse(await readFile((await file.path()) as string, 'utf8'));
  expect(certificate).toMatchObject({
    signer: { typedName: 'Ada Lovelace', consent: true },
    documents: [{ title: 'purchase-agreement', hashAlgorithm: 'SHA-256' }],
  });
  await context.close();
}

describeInBrowser('documents', (suite) => {
  it('uploads a PDF linked to a customer, sends it for signature, the customer signs in a second browser, the request shows signed and the certificate downloads (English, 1280 px)', async () => {
    await signingRound(suite, languages.English, desktop, true);
  });

  it('does the same in Arabic on a 390 px phone, right to left, without sideways scrolling', async () => {
    await signingRound(suite, languages.Arabic, phone);
  });
});

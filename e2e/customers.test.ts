import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Company, Portal } from './support/portal';
import {
  dateField,
  freshPage,
  insideWindow,
  open,
  readingDirection,
  seedStorage,
  sidewaysOverflow,
  tokenKey,
  typeDate,
  visible,
  waitForPath,
} from './support/screens';
import { describeInBrowser } from './support/suite';

/** What a user reads and clicks, in each language the tests walk through. */
const languages = {
  English: {
    locale: 'en',
    direction: 'ltr',
    add: 'Add customer',
    firstName: 'First name',
    lastName: 'Last name',
    email: 'Email',
    phone: 'Phone',
    added: (email: string) => `Successfully added customer: ${email}`,
    emailTaken: 'Error: Customer may already exists - check email',
    search: 'Search',
    toggleStar: (name: string) => `Star or unstar ${name}`,
    starred: 'Starred',
    bulkAdd: 'Bulk add',
    paste: 'Paste CSV or one email per line',
    sendRows: 'Add customers',
    fieldOf: (column: string) => `Customer field for column ${column}`,
    skip: "Don't import",
    needEmail: 'Choose the column that holds the email: there is nothing to import without it.',
    repeated: 'Chosen for more than one column',
    exportCsv: 'Export CSV',
    remove: 'Remove',
    confirm: 'Confirm',
    summary: (added: number, duplicates: number, invalid: number) =>
      `${added} added, ${duplicates} duplicates, ${invalid} invalid`,
    duplicate: 'Duplicate',
    invalid: 'Invalid',
    edit: 'Edit',
    editTitle: (name: string) => `Edit: ${name}`,
    push: 'Send notification',
    pushTitle: (name: string) => `Send a push notification to ${name}`,
    pushSubject: 'Title',
    pushMessage: 'Message',
    pushSend: 'Send',
    pushSent: (name: string) => `Notification sent to ${name}`,
    transactions: 'Transactions',
    transactionsTitle: (name: string) => `Transactions of ${name}`,
    save: 'Save',
    conflict: 'Someone else changed this customer while you were editing.',
    registered: 'Registered with the product',
    notRegistered: 'Not Registered',
    confirmRegistration: 'Confirm registration',
    backTo: (status: string) => `Back to ${status}`,
    currentStatus: (status: string) => `Current status: ${status}`,
    changeStatus: 'Change status',
    reason: 'Reason',
    reasonLine: (reason: string) => `Reason: ${reason}`,
    statusChange: (before: string, after: string) => `Investor status: ${before} → ${after}`,
    history: 'History',
    asOf: 'As of',
    show: 'Show',
  },
  Arabic: {
    locale: 'ar',
    direction: 'rtl',
    add: 'إضافة عميل',
    firstName: 'الاسم الأول',
    lastName: 'اسم العائلة',
    email: 'البريد الإلكتروني',
    phone: 'الهاتف',
    added: (email: string) => `تمت إضافة العميل بنجاح: ${email}`,
    emailTaken: 'خطأ: قد يكون العميل موجودًا بالفعل - تحقّق من البريد الإلكتروني',
    search: 'بحث',
    toggleStar: (name: string) => `تبديل نجمة ${name}`,
    starred: 'المميّزون بنجمة',
    bulkAdd: 'إضافة جماعية',
    paste: 'الصق CSV أو بريدًا إلكترونيًا في كل سطر',
    sendRows: 'إضافة العملاء',
    fieldOf: (column: string) => `حقل العميل للعمود ${column}`,
    skip: 'عدم الاستيراد',
    needEmail: 'اختر العمود الذي يحتوي على البريد الإلكتروني: لا شيء يُستورد من دونه.',
    repeated: 'مختار لأكثر من عمود',
    exportCsv: 'تصدير CSV',
    remove: 'حذف',
    confirm: 'تأكيد',
    summary: (added: number, duplicates: number, invalid: number) =>
      `أُضيف ${added}، مكرّر ${duplicates}، غير صالح ${invalid}`,
    duplicate: 'مكرّر',
    invalid: 'غير صالح',
    edit: 'تعديل',
    editTitle: (name: string) => `تعديل: ${name}`,
    push: 'إرسال إشعار',
    pushTitle: (name: string) => `إرسال إشعار فوري إلى ${name}`,
    pushSubject: 'العنوان',
    pushMessage: 'الرسالة',
    pushSend: 'إرسال',
    pushSent: (name: string) => `تم إرسال الإشعار إلى ${name}`,
    transactions: 'المعاملات',
    transactionsTitle: (name: string) => `معاملات ${name}`,
    save: 'حفظ',
    conflict: 'قام شخص آخر بتغيير هذا العميل أثناء تعديلك.',
    registered: 'مسجّل في المنتج',
    notRegistered: 'غير مسجّل',
    confirmRegistration: 'تأكيد التسجيل',
    backTo: (status: string) => `إعادة إلى ${status}`,
    currentStatus: (status: string) => `الحالة الحالية: ${status}`,
    changeStatus: 'تغيير الحالة',
    reason: 'السبب',
    reasonLine: (reason: string) => `السبب: ${reason}`,
    statusChange: (before: string, after: string) => `حالة المستثمر: ${before} ← ${after}`,
    history: 'السجلّ',
    asOf: 'كما في',
    show: 'عرض',
  },
} as const;

interface Customer {
  id: string;
  email: string;
  version: number;
}

type ImportedCustomer = Customer & Record<'name' | 'lastName' | 'phone' | 'notes', string>;

/** Polls as long as a step may take: the list's search waits out a debounce and a request. */
const eventually = { timeout: 15_000 };

let counter = 0;
const uniqueEmail = (name: string) =>
  `${name}-${Date.now().toString(36)}-${++counter}@investors.test`;

async function verifiedCompany(portal: Portal): Promise<Company> {
  const company = await portal.registerCompany();
  await portal.verify(company);
  return company;
}

const addCustomer = (portal: Portal, company: Company, body: Record<string, unknown>) =>
  portal.api<Customer>('POST', '/customers', { token: company.token, body });

/** The customers screens in `texts`' language, signed in as `company`. */
async function customersPage(
  suite: { browser: Browser; portal: Portal },
  company: Company,
  texts: { locale: string },
  path = '/customers/all',
  viewport?: { width: number; height: number },
) {
  const opened = await freshPage(suite.browser, viewport);
  await seedStorage(opened.page, suite.portal, { [tokenKey]: company.token, locale: texts.locale });
  await open(opened.page, suite.portal, path);
  await waitForPath(opened.page, path);
  // The first screen signs in and loads the customers code: give it longer than a later step.
  await opened.page
    .locator('table tbody tr, .RaList-main li, [data-testid=investor-status]')
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
  return opened;
}

const dialog = (page: Page) => page.getByRole('dialog');

/** CUSTOMERS_SHOTS=/some/dir keeps a picture of each screen the layout test checks. */
async function shoot(page: Page, name: string) {
  const dir = process.env.CUSTOMERS_SHOTS;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

/** Emails as long as real ones get: they must wrap or shorten, never widen the page. */
const longCustomers = [
  ['Grace', 'Hopper', 'grace1.hopper'],
  ['Alan', 'Turing', 'alan2.turing'],
  ['Edsger', 'Dijkstra', 'edsger3.dijkstra'],
].map(([name, lastName, mailbox], index) => ({
  name,
  lastName,
  email: `${mailbox}.with.a.long.address@navy-research.example`,
  phone: `+1 555 010${index}`,
  company: 'United States Navy Research',
  tags: ['vip', 'early'],
}));

/**
 * Escape on the dialog itself (the focus may have left it: a file upload, a button disabled while
 * it ran), then waits until it is gone, so that nothing in it matches what the test looks for next.
 */
async function closeDialog(page: Page) {
  await dialog(page).press('Escape');
  await dialog(page).waitFor({ state: 'hidden' });
}
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

/** The moment as the as-of field takes it (`2026-01-15T14:05:09`), in the browser's own time zone. */
const browserLocalNow = (page: Page) =>
  page.evaluate(() => {
    const now = new Date();
    return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
  });

describeInBrowser('customers', (suite) => {
  for (const [language, texts] of Object.entries(languages)) {
    it(`adds a customer with the seed's toasts, refuses a taken email, searches and stars (${language})`, async () => {
      const company = await verifiedCompany(suite.portal);
      await addCustomer(suite.portal, company, {
        email: uniqueEmail('grace'),
        name: 'Grace',
        lastName: 'Hopper',
      });
      const { context, page } = await customersPage(suite, company, texts);
      await expect
        .poll(() => page.evaluate(() => document.documentElement.dir), eventually)
        .toBe(texts.direction);
      await visible(row(page, 'Grace Hopper'));

      const email = uniqueEmail('ada');
      const fillAdd = async () => {
        await page.getByRole('button', { name: texts.add }).click();
        await dialog(page).getByLabel(texts.firstName).fill('Ada');
        await dialog(page).getByLabel(texts.lastName).fill('Lovelace');
        await dialog(page).getByLabel(texts.email).fill(email.toUpperCase());
        await dialog(page).getByRole('button', { name: texts.add }).click();
      };
      await fillAdd();
      await visible(page.getByText(texts.added(email)));
      // The list shows the new customer at once, without a reload by hand.
      await visible(row(page, 'Ada Lovelace'));

      await fillAdd();
      await visible(page.getByText(texts.emailTaken));
      await page.keyboard.press('Escape');
      expect(await row(page, 'Ada Lovelace').count()).toBe(1);

      await page.getByRole('textbox', { name: texts.search, exact: true }).fill('hopp');
      await expect.poll(() => row(page, 'Ada Lovelace').count(), eventually).toBe(0);
      await visible(row(page, 'Grace Hopper'));

      const star = page.getByRole('button', { name: texts.toggleStar('Grace Hopper') });
      await star.click();
      await expect.poll(() => star.getAttribute('aria-pressed'), eventually).toBe('true');
      await page.goto(`${suite.portal.url}/customers/starred`);
      await visible(row(page, 'Grace Hopper'));
      expect(await row(page, 'Ada Lovelace').count()).toBe(0);
      await context.close();
    });

    it(`bulk adds pasted rows and a CSV file, reports each row, exports and removes the selection (${language})`, async () => {
      const company = await verifiedCompany(suite.portal);
      const taken = uniqueEmail('taken');
      await addCustomer(suite.portal, company, { email: taken });
      const { context, page } = await customersPage(suite, company, texts);
      const fresh = uniqueEmail('fresh');
      await page.getByRole('button', { name: texts.bulkAdd }).click();
      await dialog(page)
        .getByLabel(texts.paste)
        .fill(['email,name', `${fresh},Lin`, 'not-an-email,Bad', `${taken},Again`].join('\n'));
      await dialog(page).getByRole('button', { name: texts.sendRows }).click();
      await visible(dialog(page).getByText(texts.summary(1, 1, 1)));
      const report = dialog(page).getByRole('table');
      // Lines as in the pasted text: the header is line 1.
      await visible(
        report.getByRole('row').filter({ hasText: texts.invalid }).filter({ hasText: '3' }),
      );
      await visible(
        report.getByRole('row').filter({ hasText: texts.duplicate }).filter({ hasText: taken }),
      );
      await closeDialog(page);
      await visible(row(page, fresh));

      // A CSV file instead of pasted text.
      const uploaded = uniqueEmail('uploaded');
      await page.getByRole('button', { name: texts.bulkAdd }).click();
      await dialog(page)
        .locator('input[type=file]')
        .setInputFiles({
          name: 'investors.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(`Email,First name\n${uploaded},Uma\n`),
        });
      await expect
        .poll(() => dialog(page).getByLabel(texts.paste).inputValue(), eventually)
        .toContain(uploaded);
      await dialog(page).getByRole('button', { name: texts.sendRows }).click();
      await visible(dialog(page).getByText(texts.summary(1, 0, 0)));
      await closeDialog(page);

      // The selected rows leave as the server's CSV export.
      await row(page, fresh).getByRole('checkbox').check();
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 30_000 }),
        page
          .locator('[data-test="bulk-actions-toolbar"]')
          .getByRole('button', { name: texts.exportCsv })
          .click(),
      ]);
      const csv = await readFile(await download.path(), 'utf8');
      expect(csv).toContain(fresh);
      expect(csv).not.toContain(taken);

      await page
        .locator('[data-test="bulk-actions-toolbar"]')
        .getByRole('button', { name: texts.remove })
        .click();
      await dialog(page).getByRole('button', { name: texts.confirm }).click();
      await expect.poll(() => row(page, fresh).count(), eventually).toBe(0);
      await visible(row(page, uploaded));
      await context.close();
    });

    it(`maps a CSV file's columns to customer fields before importing it (${language})`, async () => {
      const company = await verifiedCompany(suite.portal);
      // The customers page is ready once its list shows a row.
      await addCustomer(suite.portal, company, { email: uniqueEmail('known'), name: 'Known' });
      const { context, page } = await customersPage(suite, company, texts);
      const [zoe, yan] = [uniqueEmail('zoe'), uniqueEmail('yan')];
      await page.getByRole('button', { name: texts.bulkAdd }).click();
      await dialog(page)
        .locator('input[type=file]')
        .setInputFiles({
          name: 'contacts.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(
            [
              'First Name,Surname,E-mail,Mobile,Favourite colour',
              `Zoe,Quill,${zoe},+1 555 0101,teal`,
              `Yan,Reed,${yan},+1 555 0102,amber`,
            ].join('\n'),
          ),
        });
      const fieldOf = (column: string) => dialog(page).getByLabel(texts.fieldOf(column));
      await visible(fieldOf('First Name'));
      const preselected = async () => {
        const columns = ['First Name', 'Surname', 'E-mail', 'Mobile', 'Favourite colour'];
        return Promise.all(columns.map((column) => fieldOf(column).inputValue()));
      };
      expect(await preselected()).toEqual(['name', 'lastName', 'email', 'phone', '']);
      // Each column shows its cell in the file's first row.
      await visible(row(page, 'Favourite colour').getByText('teal'));

      const send = dialog(page).getByRole('button', { name: texts.sendRows });
      await fieldOf('E-mail').selectOption({ label: texts.skip });
      await visible(dialog(page).getByText(texts.needEmail));
      expect(await send.isDisabled()).toBe(true);
      await fieldOf('E-mail').selectOption('email');
      await fieldOf('Surname').selectOption('name');
      await visible(dialog(page).getByText(texts.repeated).first());
      expect(await send.isDisabled()).toBe(true);
      await fieldOf('Surname').selectOption('lastName');
      await fieldOf('Favourite colour').selectOption('notes');
      await fieldOf('Mobile').selectOption({ label: texts.skip });

      await send.click();
      await visible(dialog(page).getByText(texts.summary(2, 0, 0)));
      await closeDialog(page);
      await visible(row(page, 'Zoe Quill'));
      const imported = await suite.portal.api<ImportedCustomer[]>(
        'GET',
        `/customers?filter=${encodeURIComponent(JSON.stringify({ q: '@investors.test' }))}`,
        { token: company.token },
      );
      expect(
        imported
          .filter(({ email }) => email === zoe || email === yan)
          .map(({ email, name, lastName, phone, notes }) => ({
            email,
            name,
            lastName,
            phone,
            notes,
          }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      ).toEqual([
        { email: yan, name: 'Yan', lastName: 'Reed', phone: '', notes: 'amber' },
        { email: zoe, name: 'Zoe', lastName: 'Quill', phone: '', notes: 'teal' },
      ]);
      await context.close();
    });

    it(`says someone else changed the customer when the edit is stale (${language})`, async () => {
      const company = await verifiedCompany(suite.portal);
      const customer = await addCustomer(suite.portal, company, {
        email: uniqueEmail('stale'),
        name: 'Stale',
        phone: '+1 555 0100',
      });
      const { context, page } = await customersPage(suite, company, texts);
      await page.getByRole('button', { name: `${texts.edit} ${customer.email}` }).click();
      await dialog(page).getByLabel(texts.phone).fill('+1 555 0199');
      // Meanwhile a colleague changes the same customer.
      await suite.portal.api('PUT', `/customers/${customer.id}`, {
        token: company.token,
        body: { phone: '+1 555 0142' },
      });
      await dialog(page).getByRole('button', { name: texts.save }).click();
      await visible(dialog(page).getByRole('alert').filter({ hasText: texts.conflict }));
      const kept = await suite.portal.api<Customer & { phone: string }>(
        'GET',
        `/customers/${customer.id}`,
        { token: company.token },
      );
      expect(kept.phone).toBe('+1 555 0142');
      await page.keyboard.press('Escape');
      // Opened again, the form shows the colleague's change.
      await page.getByRole('button', { name: `${texts.edit} ${customer.email}` }).click();
      await expect
        .poll(() => dialog(page).getByLabel(texts.phone).inputValue())
        .toBe('+1 555 0142');
      await context.close();
    });

    it(`titles a customer's dialogs with their name, the e-mail only without one (${language})`, async () => {
      const company = await verifiedCompany(suite.portal);
      const grace = await addCustomer(suite.portal, company, {
        email: uniqueEmail('grace'),
        name: 'Grace',
        lastName: 'Hopper',
      });
      const nameless = await addCustomer(suite.portal, company, { email: uniqueEmail('nameless') });
      const { context, page } = await customersPage(suite, company, texts);
      const opened = [
        [texts.edit, texts.editTitle],
        [texts.push, texts.pushTitle],
        [texts.transactions, texts.transactionsTitle],
      ] as const;
      for (const [action, title] of opened) {
        await page.getByRole('button', { name: `${action} ${grace.email}` }).click();
        const heading = dialog(page).getByRole('heading').first();
        await expect.poll(() => heading.textContent()).toBe(title('Grace Hopper'));
        // The name is isolated: in Arabic it keeps its own direction inside the title.
        expect(await heading.locator('bdi').textContent()).toBe('Grace Hopper');
        await closeDialog(page);
      }
      await page.getByRole('button', { name: `${texts.edit} ${nameless.email}` }).click();
      await expect
        .poll(() => dialog(page).getByRole('heading').first().textContent())
        .toBe(texts.editTitle(nameless.email));
      await closeDialog(page);
      // Sent, the notice names the customer as the title did.
      await page.getByRole('button', { name: `${texts.push} ${grace.email}` }).click();
      await dialog(page).getByLabel(texts.pushSubject).fill('Round opens');
      await dialog(page).getByLabel(texts.pushMessage).fill('The seed round opens on Monday.');
      await dialog(page).getByRole('button', { name: texts.pushSend, exact: true }).click();
      await expect
        .poll(() => page.getByRole('alert').filter({ hasText: 'Grace Hopper' }).textContent())
        .toContain(texts.pushSent('Grace Hopper'));
      await context.close();
    });

    it(`moves an investor through statuses with a reason, shows the history and the customer as of a moment (${language})`, async () => {
      const company = await verifiedCompany(suite.portal);
      const customer = await addCustomer(suite.portal, company, {
        email: uniqueEmail('investor'),
        name: 'Ines',
      });
      const path = `/customers/all/${customer.id}`;
      const { context, page } = await customersPage(suite, company, texts, path);
      const status = page.getByTestId('investor-status');
      await visible(status.getByText(texts.currentStatus(texts.notRegistered)));

      await page.getByRole('button', { name: texts.confirmRegistration, exact: true }).click();
      await dialog(page).getByRole('button', { name: texts.changeStatus }).click();
      await visible(status.getByText(texts.currentStatus(texts.registered)));
      // A second apart on each side, for the as-of moment (the picker has whole seconds).
      await page.waitForTimeout(1100);
      const registeredMoment = await browserLocalNow(page);
      await page.waitForTimeout(1100);

      // Going back is a reversal: it needs a reason.
      await page
        .getByRole('button', { name: texts.backTo(texts.notRegistered), exact: true })
        .click();
      const confirm = dialog(page).getByRole('button', { name: texts.changeStatus });
      expect(await confirm.isDisabled()).toBe(true);
      await dialog(page).getByLabel(texts.reason).first().fill('Signed up with the wrong email');
      await confirm.click();
      await visible(status.getByText(texts.currentStatus(texts.notRegistered)));

      const history = page.getByRole('region', { name: texts.history });
      await visible(history.getByText(texts.reasonLine('Signed up with the wrong email')));
      await visible(history.getByText(texts.statusChange(texts.registered, texts.notRegistered)));
      await visible(history.getByText(company.companyName).first());

      await typeDate(dateField(page, texts.asOf), registeredMoment);
      await page.getByRole('button', { name: texts.show, exact: true }).click();
      const details = page.getByRole('region').filter({ has: dateField(page, texts.asOf) });
      await visible(details.getByRole('status'));
      await visible(details.getByText(texts.registered, { exact: true }));
      await context.close();
    });
  }

  const desktop = { width: 1280, height: 900 };
  const phone = { width: 390, height: 844 };
  // The widths and languages the defect showed in: LTR and RTL at 1280 px, RTL on a phone.
  const screens = [
    { language: 'English', texts: { locale: 'en' }, viewport: desktop },
    { language: 'Turkish', texts: { locale: 'tr' }, viewport: desktop },
    { language: 'Arabic', texts: { locale: 'ar' }, viewport: desktop },
    { language: 'Arabic', texts: { locale: 'ar' }, viewport: phone },
  ] as const;
  for (const { language, texts, viewport } of screens) {
    it(`fits customers with long emails in the window, list and page, without sideways scroll (${language}, ${viewport.width} px)`, async () => {
      const company = await verifiedCompany(suite.portal);
      const added = [];
      for (const customer of longCustomers)
        added.push(await addCustomer(suite.portal, company, customer));
      const { context, page } = await customersPage(
        suite,
        company,
        texts,
        '/customers/all',
        viewport,
      );
      const shot = `${language}-${viewport.width}`;
      for (const { email } of longCustomers) await visible(page.getByText(email).first());
      await shoot(page, `list-${shot}`);
      expect(await sidewaysOverflow(page)).toEqual([]);
      if (viewport === phone) {
        // The search field spans the list's card, as the rows do, in either direction.
        const edges = (element: Element) => {
          const box = element.getBoundingClientRect();
          return [Math.round(box.left), Math.round(box.right)];
        };
        const search = page.locator('.RaList-actions .MuiTextField-root').first();
        expect(await search.evaluate(edges)).toEqual(
          await page.locator('.RaList-content').first().evaluate(edges),
        );
      }
      for (const { name, lastName, email } of longCustomers) {
        expect(await insideWindow(page.getByText(`${name} ${lastName}`).first())).toBe(true);
        expect(await insideWindow(page.getByText(email).first())).toBe(true);
        // A wrapped email stays in reading order only when set left to right in an RTL cell.
        expect(await readingDirection(page.getByText(email).first())).toBe('ltr');
      }

      await page.goto(`${suite.portal.url}/customers/all/${added[0]?.id}`);
      const heading = page.getByRole('heading', { level: 1, name: 'Grace Hopper' });
      await visible(heading);
      await shoot(page, `page-${shot}`);
      expect(await sidewaysOverflow(page)).toEqual([]);
      expect(await insideWindow(heading)).toBe(true);
      expect(await insideWindow(page.getByText(longCustomers[0]?.email ?? '').first())).toBe(true);
      expect(await readingDirection(page.getByText(longCustomers[0]?.email ?? '').first())).toBe(
        'ltr',
      );
      await context.close();
    });
  }

  /** In review, an investor may be approved, rejected, cancelled or sent back a step (the server's order). */
  const reviewSteps = {
    en: {
      status: 'Current status: KYC Under Review',
      nextSteps: 'Next steps',
      buttons: ['Approve KYC', 'Reject KYC', 'Cancel', 'Back to Registered with the product'],
    },
    tr: {
      status: 'Geçerli durum: KYC inceleniyor',
      nextSteps: 'Sonraki adımlar',
      buttons: ["KYC'yi onayla", "KYC'yi reddet", 'İptal et', 'Ürüne kayıtlı durumuna geri al'],
    },
    ar: {
      status: 'الحالة الحالية: التحقق من الهوية قيد المراجعة',
      nextSteps: 'الخطوات التالية',
      buttons: [
        'اعتماد التحقق من الهوية',
        'رفض التحقق من الهوية',
        'إلغاء',
        'إعادة إلى مسجّل في المنتج',
      ],
    },
  } as const;
  for (const locale of ['en', 'tr', 'ar'] as const) {
    it(`labels the investor status buttons with what they do, the status with its name (${locale})`, async () => {
      const company = await verifiedCompany(suite.portal);
      const customer = await addCustomer(suite.portal, company, {
        email: uniqueEmail('reviewed'),
        name: 'Selin',
      });
      for (const status of ['Registered with the product', 'KYC Under Review'])
        await suite.portal.api('POST', `/customers/${customer.id}/investor-status`, {
          token: company.token,
          body: { status },
        });
      const expected = reviewSteps[locale];
      const path = `/customers/all/${customer.id}`;
      const { context, page } = await customersPage(suite, company, { locale }, path);
      const status = page.getByTestId('investor-status');
      await expect.poll(() => status.textContent(), eventually).toBe(expected.status);
      const steps = page.getByRole('group', { name: expected.nextSteps });
      await expect
        .poll(() => steps.getByRole('button').allInnerTexts(), eventually)
        .toEqual(expected.buttons);
      await context.close();
    });
  }

  it('chooses columns by their names on a wide screen, and offers no column chooser on a phone', async () => {
    const company = await verifiedCompany(suite.portal);
    await addCustomer(suite.portal, company, { email: uniqueEmail('columns'), name: 'Columns' });
    const { context, page } = await freshPage(suite.browser, { width: 1280, height: 900 });
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'en' });
    await open(page, suite.portal, '/customers/all');
    await page.getByRole('button', { name: 'Columns', exact: true }).click();
    // Each column is an option of the chooser, named by its header.
    await visible(page.getByRole('option', { name: 'Actions', exact: true }));
    expect(await page.getByRole('option', { name: /Unlabeled/ }).count()).toBe(0);
    await context.close();
    // A phone opens the list as one column: nothing to choose.
    const phone = await freshPage(suite.browser, { width: 390, height: 844 });
    await seedStorage(phone.page, suite.portal, { [tokenKey]: company.token, locale: 'en' });
    await open(phone.page, suite.portal, '/customers/all');
    await visible(phone.page.getByText('Columns', { exact: true }).first());
    expect(await phone.page.getByRole('button', { name: 'Columns', exact: true }).count()).toBe(0);
    await phone.context.close();
  });

  it('shows a compliance reviewer customers and histories but no command', async () => {
    const company = await verifiedCompany(suite.portal);
    const customer = await addCustomer(suite.portal, company, {
      email: uniqueEmail('audited'),
      name: 'Audited',
    });
    const reviewer = { email: uniqueEmail('reviewer'), password: 'glacier-Otter-77' };
    await suite.portal.api('POST', '/company/users', {
      token: company.token,
      body: { ...reviewer, role: 'compliance' },
    });
    const { access_token: token } = await suite.portal.api<{ access_token: string }>(
      'POST',
      '/auth',
      { body: reviewer },
    );
    const texts = languages.English;
    const { context, page } = await customersPage(suite, { ...company, token }, texts);
    await visible(row(page, 'Audited'));
    expect(await page.getByRole('button', { name: texts.add }).count()).toBe(0);
    expect(await page.getByRole('button', { name: texts.toggleStar('Audited') }).count()).toBe(0);

    await page.goto(`${suite.portal.url}/customers/all/${customer.id}`);
    await visible(
      page.getByRole('region', { name: texts.history }).getByText('Added', { exact: true }),
    );
    expect(
      await page.getByRole('button', { name: texts.confirmRegistration, exact: true }).count(),
    ).toBe(0);
    expect(await page.getByRole('button', { name: texts.edit }).count()).toBe(0);
    await context.close();
  });
});

describeInBrowser('customers list, e-mail addresses', (suite) => {
  it('wraps an address after its @ or before a dot, never leaving a letter alone (Turkish, 1280 px)', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const email = `ayse-${Date.now().toString(36)}@example.com.tr`;
    await suite.portal.api('POST', '/customers', {
      token: company.token,
      body: { name: 'Ayşe', lastName: 'Yılmaz', email },
    });
    const { context, page } = await freshPage(suite.browser, { width: 1280, height: 900 });
    await seedStorage(page, suite.portal, { [tokenKey]: company.token, locale: 'tr' });
    await open(page, suite.portal, '/customers');
    const cell = page.getByRole('cell', { name: email, exact: true });
    await visible(cell);
    // The address as it is drawn, one string per line.
    const lines = await cell.evaluate((element) => {
      const drawn: { top: number; text: string }[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let index = 0; index < text.length; index++) {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          const top = Math.round(range.getBoundingClientRect().top);
          const line = drawn.find((entry) => Math.abs(entry.top - top) < 4);
          if (line) line.text += text[index];
          else drawn.push({ top, text: text[index] ?? '' });
        }
      }
      return drawn.map((line) => line.text);
    });
    expect(lines.join('')).toBe(email);
    for (const [index, line] of lines.entries())
      if (index > 0)
        expect(line.startsWith('.') || lines[index - 1]?.endsWith('@'), line).toBe(true);
    await context.close();
  });
});

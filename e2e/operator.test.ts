import { expect, it } from 'vitest';
import { operatorAccount } from './support/portal';
import { freshPage, open, seedStorage, tokenKey, visible } from './support/screens';
import { describeInBrowser } from './support/suite';

describeInBrowser("the operator's companies", (suite) => {
  it("shows each company's contact email and finds a company by it", async () => {
    const company = await suite.portal.registerCompany();
    const { access_token: token } = await suite.portal.api<{ access_token: string }>(
      'POST',
      '/auth',
      { body: operatorAccount },
    );
    const { context, page } = await freshPage(suite.browser);
    await seedStorage(page, suite.portal, { [tokenKey]: token });
    await open(page, suite.portal, '/companies');
    await visible(page.getByRole('columnheader', { name: 'Contact email' }));
    await page.getByPlaceholder('Search', { exact: true }).fill(company.email.toUpperCase());
    const rows = page.getByRole('row');
    await expect.poll(() => rows.count()).toBe(2);
    await visible(rows.filter({ hasText: company.email }).filter({ hasText: company.companyName }));
    await context.close();
  });
});

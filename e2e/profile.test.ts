import { expect, it } from 'vitest';
import { sidewaysOverflow, signedInPage, visible } from './support/screens';
import { describeInBrowser } from './support/suite';

describeInBrowser('company profile', (suite) => {
  it('keeps each label with its value on a phone, apart from the pair above', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/profile', {
      width: 390,
      height: 844,
    });
    const details = page.locator('dl').first();
    await visible(details.getByText(company.companyName));
    const boxes = await details.evaluate((list) =>
      [...list.querySelectorAll('dt, dd')].map((item) => item.getBoundingClientRect()),
    );
    const [label, value, nextLabel] = boxes;
    if (!label || !value || !nextLabel) throw new Error('expected two label and value pairs');
    const withinPair = value.top - label.bottom;
    const betweenPairs = nextLabel.top - value.bottom;
    expect(betweenPairs).toBeGreaterThanOrEqual(withinPair + 8);
    expect(await sidewaysOverflow(page)).toEqual([]);
    await context.close();
  });
});

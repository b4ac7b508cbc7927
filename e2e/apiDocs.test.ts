import { expect, it } from 'vitest';
import { describeInBrowser } from './support/suite';

describeInBrowser('the API reference page (/api/docs)', (suite) => {
  it('renders the OpenAPI description with nothing fetched from outside the portal', async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    const elsewhere: string[] = [];
    // Offline machines and users have no CDN: every request must stay on the portal.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(suite.portal.url) || url.startsWith('data:') || url.startsWith('blob:')) {
        return route.continue();
      }
      elsewhere.push(url);
      return route.abort();
    });
    await page.goto(`${suite.portal.url}/api/docs`);
    await page.getByRole('heading', { name: 'Issuer Portal API' }).first().waitFor();
    await page.getByText('Customers (investors and leads) of the company').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(elsewhere).toEqual([]);
    await context.close();
  });

  it('is not part of the admin UI: the portal loads no reference renderer', async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${suite.portal.url}/login`, { waitUntil: 'networkidle' });
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((path) => path.startsWith('/api/docs'))).toEqual([]);
    await context.close();
  });
});

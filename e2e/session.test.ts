import { setTimeout } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { supportEmail } from './support/portal';
import {
  fieldMessage,
  freshPage,
  loginForm,
  navItem,
  open,
  pathOf,
  registerForm,
  seedStorage,
  signedInPage,
  storedToken,
  submitLogin,
  tokenKey,
  visible,
  waitForPath,
} from './support/screens';
import { describeInBrowser } from './support/suite';

const minLength = 'Min character length is 4';

describeInBrowser('sign-in, registration and the session', (suite) => {
  it('sends a guest from / to a bare login page that links to registration and names support', async () => {
    const { context, page } = await freshPage(suite.browser);
    await open(page, suite.portal, '/');
    await waitForPath(page, '/login');
    await visible(page.getByRole('heading', { name: /welcome/i }).first());
    // The forgotten-password line names the configured support address.
    await visible(page.getByText(/password/).and(page.getByText(supportEmail)));
    expect(await page.getByRole('navigation').count()).toBe(0);
    await page.getByRole('link', { name: 'Register Account' }).click();
    await waitForPath(page, '/register');
    await visible(page.getByText(/one step closer to managing (your )?customers with ease/i));
    await visible(page.getByText('Already have an account?'));
    await context.close();
  });

  it('registers only a valid form, shows every validation and server message under its field, then signs in', async () => {
    const taken = await suite.portal.registerCompany();
    const { context, page } = await freshPage(suite.browser);
    await open(page, suite.portal, '/register');
    const form = registerForm(page);
    expect(await form.submit.isDisabled()).toBe(true);

    await form.companyName.fill('Abc');
    await form.email.fill('not-an-email');
    await form.password.fill('long-and-unusual-pass');
    await form.confirmPassword.fill('long-and-unusual-pasz');
    await form.companySymbol.click();
    await expect.poll(() => fieldMessage(form.companyName)).toBe(minLength);
    await expect.poll(() => fieldMessage(form.email)).toBe('Please enter a valid email');
    await expect.poll(() => fieldMessage(form.confirmPassword)).toBe('Passwords do not match');
    expect(await form.submit.isDisabled()).toBe(true);

    await form.companyName.fill('Maple Robotics');
    await form.companySymbol.fill('MAPLB');
    await form.email.fill(taken.email);
    await form.confirmPassword.fill('long-and-unusual-pass');
    await expect.poll(() => form.submit.isEnabled()).toBe(true);
    await form.submit.click();
    await expect.poll(() => fieldMessage(form.email)).toBe('The email is already in use');
    expect(pathOf(page)).toBe('/register');
    // Said once, under the field: no toast calling the form invalid over the button.
    await page.waitForTimeout(500);
    expect(await page.getByText(/The form is not valid/).count()).toBe(0);

    const email = `new-${Date.now().toString(36)}@maple.test`;
    await form.email.fill(email);
    await form.submit.click();
    // A new company is not verified yet: it lands on its profile.
    await waitForPath(page, '/profile');
    expect(await storedToken(page)).toBeTruthy();

    await open(page, suite.portal, '/logout');
    await waitForPath(page, '/login');
    await submitLogin(page, { email, password: 'long-and-unusual-pass' });
    await waitForPath(page, '/profile');
    await context.close();
  });

  it('keeps the login button disabled until the form is valid, shows the password on request and says once that a wrong password is wrong', async () => {
    const company = await suite.portal.registerCompany();
    const { context, page } = await freshPage(suite.browser);
    await open(page, suite.portal, '/login');
    const form = loginForm(page);
    expect(await form.submit.isDisabled()).toBe(true);
    await form.email.fill('abc');
    await form.password.fill('abc');
    await form.email.click();
    await expect.poll(() => fieldMessage(form.email)).toContain(minLength);
    await expect.poll(() => fieldMessage(form.password)).toContain(minLength);
    expect(await form.submit.isDisabled()).toBe(true);

    expect(await form.password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: /show password|toggle password/i }).click();
    expect(await form.password.getAttribute('type')).toBe('text');

    await form.email.fill(company.email);
    await form.password.fill('wrong-password-here');
    await form.submit.click();
    const alerts = page.getByRole('alert');
    await visible(alerts.filter({ hasText: 'Email or password is incorrect' }));
    // One message: no "form is not valid" toast beside it, nothing doubled under the fields.
    await page.waitForTimeout(500);
    expect(await alerts.count()).toBe(1);
    expect(await page.getByText('The form is not valid').count()).toBe(0);
    expect((await fieldMessage(form.password)).replace(/\u200b/g, '')).toBe('');
    expect(pathOf(page)).toBe('/login');
    await context.close();
  });

  it('returns to the page a guest asked for after sign-in, and sends a signed-in user away from /login', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await freshPage(suite.browser);
    await open(page, suite.portal, '/pages/profile');
    await waitForPath(page, '/login');
    // The form comes at once (a redirect loop once kept a guest on 'Loading' for ten seconds).
    await loginForm(page).email.waitFor({ timeout: 5_000 });
    await submitLogin(page, company);
    await waitForPath(page, '/pages/profile');

    await open(page, suite.portal, '/login');
    await page.waitForURL((url) => url.pathname !== '/login');
    expect(pathOf(page)).not.toBe('/register');
    await context.close();
  });

  it('sends a verified company to its customers after sign-in, where a new one has none yet', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await freshPage(suite.browser);
    await open(page, suite.portal, '/login');
    await submitLogin(page, company);
    await waitForPath(page, '/customers/all');
    await page.getByText('No customers yet').waitFor();
    await page.getByRole('button', { name: 'Add customer' }).first().waitFor();
    await context.close();
  });

  it('logs out from the navigation: says so, revokes the token, forgets it and goes to /', async () => {
    const company = await suite.portal.registerCompany();
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/profile');
    await waitForPath(page, '/profile');
    // The revocation is held up for a moment, as on a slow network, so the page can be read.
    let revokedToken: string | undefined;
    await page.route('**/api/auth/logout', async (route) => {
      revokedToken = route
        .request()
        .headers()
        .authorization?.replace(/^Bearer /, '');
      await setTimeout(1_000);
      await route.continue();
    });
    await navItem(page, 'Logout').click();
    await visible(page.getByText('Logging out..'));
    await waitForPath(page, '/login');
    expect(await storedToken(page)).toBeNull();
    const check = await fetch(`${suite.portal.url}/api/auth/access-token`, {
      headers: { authorization: `Bearer ${revokedToken}` },
    });
    expect(check.status).toBe(401);
    await context.close();
  });

  it('logs out when the stored token has expired', async () => {
    const company = await suite.portal.registerCompany();
    const { context, page } = await freshPage(suite.browser);
    await seedStorage(page, suite.portal, {
      [tokenKey]: await suite.portal.expiredTokenFor(company),
    });
    await open(page, suite.portal, '/profile');
    await visible(page.getByText('access_token expired'));
    await waitForPath(page, '/login');
    await expect.poll(() => storedToken(page)).toBeNull();
    await context.close();
  });

  it('logs out on the first 401 from the API, here after the token was revoked elsewhere', async () => {
    const company = await suite.portal.registerCompany();
    await suite.portal.verify(company);
    const { context, page } = await signedInPage(suite.browser, suite.portal, company, '/');
    await waitForPath(page, '/customers/all');
    // Once the customers list has its answer, the click below makes the first call after.
    await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/api/customers'),
      page.reload(),
    ]);
    await suite.portal.api('POST', '/auth/logout', { token: (await storedToken(page)) ?? '' });
    await navItem(page, 'Profile').click();
    await waitForPath(page, '/login');
    await visible(page.getByText('Invalid access_token'));
    await expect.poll(() => storedToken(page)).toBeNull();
    await context.close();
  });
});

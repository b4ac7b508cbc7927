import type { Context } from 'hono';

/**
 * `GET /`: what a newcomer who opens the server in a browser sees, until the admin UI is served
 * here. It names the API's entry points instead of a bare 404.
 */
export function welcome(c: Context) {
  return c.json({
    name: 'Issuer Portal',
    message: 'The API is running. The admin UI is not served yet: use the API under /api.',
    links: {
      health: '/api/health',
      register: 'POST /api/auth/register {companyName, companySymbol, email, password}',
      signIn: 'POST /api/auth {email, password}',
      profile: 'GET /api/profile/about (Authorization: Bearer <access_token>)',
    },
  });
}

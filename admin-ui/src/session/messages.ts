/** Translation keys of the session's messages (their English text is the seed's). */
export const sessionMessages = {
  loggingIn: 'app.session.logging_in',
  loggedIn: 'app.session.logged_in',
  expired: 'app.session.expired',
  invalidToken: 'app.session.invalid_token',
  failed: 'app.session.failed',
  loggingOut: 'app.session.logging_out',
} as const;

const fallbackSupportEmail = 'support@issuer-portal.local';

/** The server fills `<meta name="support-email">` from SUPPORT_EMAIL when it serves index.html. */
export function supportEmail(): string {
  const content = document.querySelector('meta[name="support-email"]')?.getAttribute('content');
  return content && !content.startsWith('%') ? content : fallbackSupportEmail;
}

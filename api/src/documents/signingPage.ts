import { getCompanyProfile } from '@issuer/projections';
import { type Context, Hono } from 'hono';
import { html, raw } from 'hono/html';
import { z } from 'zod';
import { type AppEnv, clientAddress, waitForReadModels } from '../http';
import { storageOf } from './api';
import { certificateOf } from './certificate';
import { isDocument } from './document';
import {
  actAsSigner,
  loadDocument,
  loadSignatureRequest,
  markDocumentsSigned,
} from './documentCommands';
import { streamFile } from './download';
import { allSentDocumentsSigned } from './queries';
import { isSignatureRequest, type SignatureRequest } from './signatureRequest';
import { requestIdOfToken, signingKey } from './signingLink';
import {
  type SigningLanguage,
  type SigningMessages,
  signingLanguage,
  signingLanguages,
  signingMessages,
} from './signingMessages';

type Open = Extract<SignatureRequest, { status: string; requestId: string }>;

const signSchema = z.object({
  signerName: z.string().trim().min(1).max(200),
  consent: z.literal('on'),
});

interface Page {
  language: SigningLanguage;
  m: SigningMessages;
  token: string;
}

function pageOf(c: Context<AppEnv>): Page {
  const language = signingLanguage(c.req.query('lang'), c.req.header('Accept-Language'));
  return { language, m: signingMessages[language], token: c.req.param('token') ?? '' };
}

/** The request the link names, or undefined for a link that is not one of ours. */
async function requestOf(c: Context<AppEnv>): Promise<Open | undefined> {
  const requestId = requestIdOfToken(
    signingKey(c.var.deps.config.tokenSecret),
    c.req.param('token') ?? '',
  );
  if (!requestId) return undefined;
  const state = await loadSignatureRequest(c.var.deps, requestId);
  return isSignatureRequest(state) ? state : undefined;
}

const signerContext = (c: Context<AppEnv>) => ({
  ip: clientAddress(c),
  userAgent: (c.req.header('User-Agent') ?? '').slice(0, 500),
  correlationId: c.var.requestId,
});

const overdue = (c: Context<AppEnv>, request: Open) =>
  c.var.deps.clock().getTime() >= Date.parse(request.expiresAt);

function when(language: SigningLanguage, at: string) {
  const format = new Intl.DateTimeFormat(language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return `${format.format(new Date(at))} UTC`;
}

const styles = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:#1f2937;background:#f4f6fb}main{max-width:720px;margin:0 auto;padding:24px 16px}
.card{background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.08);margin-bottom:16px}
h1{font-size:1.5rem;margin:0 0 8px}ul{list-style:none;padding:0;margin:0}
li{padding:12px 0;border-bottom:1px solid #e5e7eb;display:flex;flex-wrap:wrap;gap:8px;align-items:center;justify-content:space-between}
li:last-child{border-bottom:0}.hash{font-family:ui-monospace,monospace;font-size:.75rem;color:#4b5563;overflow-wrap:anywhere}
label{display:block;font-weight:600;margin:12px 0 4px}input[type=text]{width:100%;padding:10px;font:inherit;border:1px solid #9ca3af;border-radius:8px}
.consent{display:flex;gap:8px;font-weight:400;align-items:flex-start}.consent input{margin-top:5px}
button{font:inherit;padding:10px 20px;border-radius:8px;border:0;cursor:pointer;margin-top:12px}
.primary{background:#1d4ed8;color:#fff}.secondary{background:#e5e7eb;color:#111827}
.error{color:#b91c1c;font-size:.875rem;margin:4px 0 0}.status{font-weight:600}
nav{display:flex;gap:12px;justify-content:flex-end;margin-bottom:12px}a{color:#1d4ed8}
`;

function layout(page: Page, body: unknown) {
  const dir = page.language === 'ar' ? 'rtl' : 'ltr';
  return html`<!doctype html>
<html lang="${page.language}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${page.m.title}</title><style>${raw(styles)}</style></head>
<body><main>
<nav aria-label="Language">${signingLanguages.map(
    (language) =>
      html`<a href="?lang=${language}" lang="${language}" ${language === page.language ? raw('aria-current="true"') : ''}>${signingMessages[language].languageName}</a>`,
  )}</nav>
${body}
</main></body></html>`;
}

const link = (page: Page, path: string) => `/sign/${page.token}${path}?lang=${page.language}`;

async function render(
  c: Context<AppEnv>,
  page: Page,
  request: Open,
  errors: { signerName?: string; consent?: string } = {},
  status: 200 | 400 | 410 = 200,
) {
  const { m, language } = page;
  const company = (await getCompanyProfile(c.var.deps.pool, request.companyId))?.name ?? '';
  const documents = html`<ul>${request.documents.map(
    (
      document,
    ) => html`<li><span><strong><bdi>${document.title}</bdi></strong> · ${m.version(document.version)}<br>
<span class="hash">${m.fingerprint} ${document.sha256}</span></span>
<a href="${link(page, `/documents/${document.documentId}`)}" target="_blank" rel="noopener">${m.open}</a></li>`,
  )}</ul>`;
  const open = (request.status === 'sent' || request.status === 'viewed') && !overdue(c, request);
  const closedText =
    request.status === 'signed' && request.signed
      ? html`<p class="status" role="status">${m.signed(request.signed.signerName, when(language, request.signed.at))}</p>
<p><a href="${link(page, '/certificate')}" download>${m.certificate}</a></p>`
      : html`<p class="status" role="status">${
          request.status === 'declined'
            ? m.declined
            : request.status === 'cancelled'
              ? m.cancelled
              : m.expired
        }</p>`;
  const form = html`<form method="post" action="${link(page, '/sign')}" novalidate>
<label for="signerName">${m.nameLabel}</label>
<input type="text" id="signerName" name="signerName" autocomplete="name" maxlength="200" required
 ${errors.signerName ? raw('aria-invalid="true" aria-describedby="signerName-error"') : ''}>
${errors.signerName ? html`<p class="error" id="signerName-error">${errors.signerName}</p>` : ''}
<label class="consent"><input type="checkbox" name="consent" required
 ${errors.consent ? raw('aria-invalid="true" aria-describedby="consent-error"') : ''}> <span>${m.consentLabel}</span></label>
${errors.consent ? html`<p class="error" id="consent-error">${errors.consent}</p>` : ''}
<button type="submit" class="primary">${m.sign}</button>
</form>
<form method="post" action="${link(page, '/decline')}">
<label for="reason">${m.declineLabel}</label>
<input type="text" id="reason" name="reason" maxlength="500">
<button type="submit" class="secondary">${m.decline}</button>
</form>`;
  const body = html`<section class="card"><h1>${m.title}</h1><p>${m.intro(company)}</p>
${open ? html`<p>${m.expires(when(language, request.expiresAt))}</p>` : ''}
${request.message ? html`<p><strong>${m.message}:</strong> ${request.message}</p>` : ''}
${documents}</section>
<section class="card">${open ? form : closedText}</section>`;
  return c.html(layout(page, body), open ? status : request.status === 'signed' ? 200 : 410);
}

function notFoundPage(c: Context<AppEnv>, page: Page) {
  return c.html(
    layout(
      page,
      html`<section class="card"><h1>${page.m.title}</h1><p>${page.m.notFound}</p></section>`,
    ),
    404,
  );
}

/** After a signature: when the customer's documents for the round are all signed, say so. */
async function afterSigned(c: Context<AppEnv>, request: Open, position: bigint | undefined) {
  await waitForReadModels(c, position);
  const { companyId, customerId, roundId, requestId } = request;
  if (await allSentDocumentsSigned(c.var.deps.pool, companyId, customerId, roundId)) {
    const moved = await markDocumentsSigned(c.var.deps, { requestId, companyId, customerId });
    await waitForReadModels(c, moved.position);
  }
}

/**
 * The public signing page at `/sign/:token` (no sign-in: the unguessable link is the credential),
 * server-rendered in English, Turkish or Arabic. The signer reviews the documents, types their
 * name and consents, or declines; each act records the time, IP address and user agent.
 */
export function signingRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .use('/sign/*', async (c, next) => {
      await next();
      // The token is in the address: never sent on as a referrer, never cached, never framed.
      c.header('Referrer-Policy', 'no-referrer');
      c.header('Cache-Control', 'no-store');
      c.header('X-Frame-Options', 'DENY');
      if (c.res.headers.get('Content-Type')?.startsWith('text/html')) {
        c.header(
          'Content-Security-Policy',
          "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        );
      }
    })
    .get('/sign/:token', async (c) => {
      const page = pageOf(c);
      const request = await requestOf(c);
      if (!request) return notFoundPage(c, page);
      const viewed = await actAsSigner(
        c.var.deps,
        request.requestId,
        { type: 'ViewSignatureRequest' },
        signerContext(c),
      );
      await waitForReadModels(c, viewed.position);
      return render(c, page, (viewed.state as Open) ?? request);
    })
    .post('/sign/:token/sign', async (c) => {
      const page = pageOf(c);
      const request = await requestOf(c);
      if (!request) return notFoundPage(c, page);
      if ((request.status !== 'sent' && request.status !== 'viewed') || overdue(c, request)) {
        return render(c, page, request);
      }
      const form = await c.req.parseBody();
      const parsed = signSchema.safeParse(form);
      if (!parsed.success) {
        const fields = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
        const errors = {
          ...(fields.has('signerName') ? { signerName: page.m.nameRequired } : {}),
          ...(fields.has('consent') ? { consent: page.m.consentRequired } : {}),
        };
        return render(c, page, request, errors, 400);
      }
      const signed = await actAsSigner(
        c.var.deps,
        request.requestId,
        { type: 'SignDocuments', signerName: parsed.data.signerName },
        signerContext(c),
      );
      await afterSigned(c, request, signed.position);
      return c.redirect(link(page, ''), 303);
    })
    .post('/sign/:token/decline', async (c) => {
      const page = pageOf(c);
      const request = await requestOf(c);
      if (!request) return notFoundPage(c, page);
      if ((request.status !== 'sent' && request.status !== 'viewed') || overdue(c, request)) {
        return render(c, page, request);
      }
      const form = await c.req.parseBody();
      const reason = typeof form.reason === 'string' ? form.reason.trim().slice(0, 500) : '';
      const declined = await actAsSigner(
        c.var.deps,
        request.requestId,
        { type: 'DeclineSignature', reason: reason || null },
        signerContext(c),
      );
      await waitForReadModels(c, declined.position);
      return c.redirect(link(page, ''), 303);
    })
    .get('/sign/:token/documents/:documentId', async (c) => {
      const page = pageOf(c);
      const request = await requestOf(c);
      const sent = request?.documents.find((d) => d.documentId === c.req.param('documentId'));
      if (!request || !sent) return notFoundPage(c, page);
      const document = await loadDocument(c.var.deps, sent.documentId);
      const version = isDocument(document) ? document.versions[sent.version - 1] : undefined;
      if (!version) return notFoundPage(c, page);
      return streamFile(c, storageOf(c.var.deps), version, 'inline');
    })
    .get('/sign/:token/certificate', async (c) => {
      const page = pageOf(c);
      const request = await requestOf(c);
      if (request?.status !== 'signed') return notFoundPage(c, page);
      c.header(
        'Content-Disposition',
        `attachment; filename="signature-certificate-${request.requestId}.json"`,
      );
      return c.json(certificateOf(request), 200);
    });
}

import type { Response } from 'express';
import { languageOfTag, translate, type Language } from '@tessera/core/internal';

/**
 * A refused provider sign-in seen in a browser (issue 18): a small page that says what went
 * wrong and links back to /login (of the web client the sign-in started from, with its
 * organization), rather than a bare text. Other clients still get the text (docs/api.md).
 */
export type FailureContext = { origin?: string; org?: string };

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The browser's first catalogue language of its Accept-Language, else English. */
export const pageLanguage = (acceptLanguage: string | undefined): Language => {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const lang = languageOfTag(part.split(';')[0].trim());
    if (lang) return lang;
  }
  return 'en';
};

/** Whether the request is a browser's page navigation (it asks for HTML). */
export const wantsPage = (accept: string | undefined): boolean => (accept ?? '').toLowerCase().includes('text/html');

/** `/login` of the client the flow came from, with its organization (spec 000 section 2: /login reads org). */
export const loginUrlOf = (ctx: FailureContext): string => `${ctx.origin ?? ''}/login${ctx.org ? `?org=${encodeURIComponent(ctx.org)}` : ''}`;

export const providerFailurePage = (text: string, ctx: FailureContext, lang: Language): string => {
  const title = translate(lang, 'PvFailedTitle');
  const back = translate(lang, 'PvBackToLogin');
  return `<!doctype html>
<html lang="${lang === 'cz' ? 'cs' : lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:12vh auto;padding:0 1rem;line-height:1.5}p.reason{padding:.75rem 1rem;border-left:4px solid #c62828;background:rgba(198,40,40,.08);overflow-wrap:anywhere}a{display:inline-block;margin-top:1rem;font-weight:600}</style>
</head>
<body><main><h1>${escapeHtml(title)}</h1><p class="reason" role="alert">${escapeHtml(text)}</p><a href="${escapeHtml(loginUrlOf(ctx))}" id="back-to-login">${escapeHtml(back)}</a></main></body>
</html>`;
};

/** Sends a refusal: the page to a browser, the text to anyone else; the status is the same. */
export const sendProviderRefusal = (res: Response, status: number, text: string, ctx: FailureContext): void => {
  res.setHeader('Cache-Control', 'no-store');
  if (wantsPage(res.req.headers.accept)) {
    res.status(status).type('text/html').send(providerFailurePage(text, ctx, pageLanguage(res.req.headers['accept-language'])));
  } else {
    res.status(status).type('text/plain').send(text);
  }
};

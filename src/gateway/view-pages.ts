import { escapeHtml as esc } from '../text.js';

// The two small pages the job view answers with instead of itself: off on this address, or on
// and asking for a token. Plain HTML, nothing from elsewhere.

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><link rel="icon" href="data:,">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .2em}</style></head>
<body><h1>${esc(title)}</h1>${body}</body></html>
`;

/** GET / and the view's pages where the operator has not turned the view on here. */
export const viewOffPage = (message: string) =>
  page(
    'booty: the job view is off',
    `<p>${esc(message)}.</p>
<p>booty serves its job view on a server that listens on loopback only (<code>HOST=127.0.0.1</code>), or where the operator sets <code>BOOTY_DASHBOARD=on</code>. Webhooks go to the webhook path as before, and <code>/healthz</code>, <code>/readyz</code> and <code>/metrics</code> answer as always.</p>
<p>The jobs API (<code>/jobs</code>, described at <a href="/openapi.json">/openapi.json</a>) answers requests that carry a token.</p>`,
  );

/** A view page asked for without a token: a form that keeps one in a cookie for this browser. */
export const tokenPage = (reason: string, next: string) =>
  page(
    'booty: a token, please',
    `<p>The job view needs a read token here (${esc(reason)}). An operator makes one with <code>booty token create --scope read</code>.</p>
<form method="post" action="/view/token"><input type="hidden" name="next" value="${esc(next)}">
<label>Token <input name="token" type="password" autocomplete="off" size="50" required></label>
<button type="submit">Open the job view</button></form>
<p>The browser keeps the token as a cookie for this site, for reading only.</p>`,
  );

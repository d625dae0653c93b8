import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml as html } from '../text.js';

// The browser's half of GitHub's manifest flow, served on loopback. `/` is a page whose form posts
// the manifest to GitHub's "new App" page (by itself, with a button for a browser without
// scripts); GitHub sends the browser back to `/callback?code=…&state=…`, and the code goes to
// `exchange`, whose answer is the page the browser shows last. The state is a secret of this run:
// a callback without it is not from the page this process served, and its code is not used.

export interface ManifestFlow {
  /** The page to open. */
  url: string;
  /** Where GitHub sends the browser back; goes into the manifest as redirect_url. */
  redirectUrl: string;
  /** Resolves with exchange's result once a callback's code was exchanged; rejects if that failed. */
  done: Promise<string>;
  close(): Promise<void>;
}

export interface ManifestFlowOptions {
  /** GitHub's page that takes a manifest, e.g. https://github.com/settings/apps/new. */
  postTo: string;
  /** The manifest, given the redirect URL this flow listens on. */
  manifest: (redirectUrl: string) => object;
  /** Trades the code for the App; resolves with a line for the browser, or rejects with the reason. */
  exchange: (code: string) => Promise<string>;
  port?: number;
}

export async function startManifestFlow(options: ManifestFlowOptions): Promise<ManifestFlow> {
  const state = randomBytes(16).toString('hex');
  let settle!: { resolve: (v: string) => void; reject: (e: unknown) => void };
  const done = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  done.catch(() => {}); // the caller awaits it; a failure is not unhandled meanwhile
  let exchanging = false;
  let manifest = '';
  let action = '';

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const reply = (status: number, title: string, body: string) =>
      res
        .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(`<!doctype html><meta charset="utf-8"><title>${html(title)}</title>${body}`);
    if (req.method === 'GET' && url.pathname === '/') {
      return reply(
        200,
        'booty: create the GitHub App',
        `<form method="post" action="${html(action)}">` +
          `<input type="hidden" name="manifest" value="${html(manifest)}">` +
          '<p>Sending booty’s manifest to GitHub…</p><button type="submit">Continue to GitHub</button></form>' +
          '<script>document.forms[0].submit()</script>',
      );
    }
    if (req.method === 'GET' && url.pathname === '/callback') {
      const code = url.searchParams.get('code');
      if (url.searchParams.get('state') !== state || !code) {
        return reply(400, 'Not from this booty', '<p>This link did not come from the page booty opened.</p>');
      }
      if (exchanging)
        return reply(409, 'Already done', '<p>This App was already created; see the terminal.</p>');
      exchanging = true;
      options.exchange(code).then(
        (line) => {
          reply(200, 'GitHub App created', `<p>${html(line)}</p><p>You can close this tab.</p>`);
          settle.resolve(line);
        },
        (err: unknown) => {
          reply(502, 'Not created', `<p>${html((err as Error).message)}</p>`);
          settle.reject(err);
        },
      );
      return;
    }
    reply(404, 'Not found', '<p>Open the page booty printed.</p>');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redirectUrl = `${base}/callback`;
  manifest = JSON.stringify(options.manifest(redirectUrl));
  const post = new URL(options.postTo);
  post.searchParams.set('state', state);
  action = post.href;
  return {
    url: `${base}/`,
    redirectUrl,
    done,
    close: () =>
      new Promise<void>((resolve) => {
        // The last page may still be on its way: let it go out, then close the kept-alive sockets.
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

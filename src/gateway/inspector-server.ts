import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { BootyError } from '../errors.js';
import { bridgePage } from '../views/inspector-page.js';

// The local end of the Stately inspector: an HTTP page that embeds the inspector, and on the same
// port a websocket that sends the page every inspector message. A viewer who connects late is sent
// the history first, so opening the URL after a replay was played still shows all of it.
// (@statelyai/inspect's own server keeps the last 200 messages and needs a fixed port; a replay
// can be longer, and tests need port 0.)

export interface InspectorServerOptions {
  /** 0 (the default) takes any free port; the URL says which. */
  port?: number;
  /** Loopback by default: job contexts are not for the network. */
  host?: string;
  /** Messages kept for a viewer who connects later (default: all). */
  history?: number;
  /** The job's own page (job-view.ts), served at /view: what the bridge falls back to offline. */
  localView?: string;
  /** How long the bridge waits for the inspector to answer before it shows the local view. */
  fallbackMs?: number;
}

export interface InspectorServer {
  /** The page to open in a browser. */
  url: string;
  /** Where the page's websocket connects: a viewer, or a test, reads the messages there. */
  wsUrl: string;
  port: number;
  /** Sends one message (a JSON text) to every viewer and keeps it for later ones. */
  publish(line: string): void;
  /** Resolves once a viewer has been sent everything published before it connected. */
  viewed(): Promise<void>;
  /** Where the page goes when stately.ai does not answer (a served view elsewhere). */
  fallbackTo(url: string): void;
  close(): Promise<void>;
}

export async function startInspectorServer(options: InspectorServerOptions = {}): Promise<InspectorServer> {
  const host = options.host ?? '127.0.0.1';
  const limit = options.history ?? Number.POSITIVE_INFINITY;
  const history: string[] = [];
  let origins = new Set<string>();
  let markViewed!: () => void;
  const viewed = new Promise<void>((resolve) => {
    markViewed = resolve;
  });

  let fallback: string | null = null;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/' || req.url === '/index.html')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        bridgePage({
          localView: fallback ?? (options.localView ? '/view' : null),
          fallbackMs: options.fallbackMs,
        }),
      );
      return;
    }
    if (req.method === 'GET' && req.url === '/view' && options.localView) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(options.localView);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
  });
  const wss = new WebSocketServer({
    server,
    // A web page elsewhere must not read job contexts through a socket on this machine; a
    // browser always names the page's origin, other local clients send none.
    verifyClient: ({ origin }: { origin?: string }) => !origin || origins.has(origin),
  });
  // Listen errors are reported by the promise below; a broken viewer only loses its own socket.
  wss.on('error', () => {});
  wss.on('connection', (ws: WebSocket) => {
    ws.on('error', () => ws.terminate());
    const backlog = [...history];
    if (backlog.length === 0) return markViewed();
    backlog.forEach((line, i) => {
      ws.send(line, i === backlog.length - 1 ? (err) => err || markViewed() : undefined);
    });
  });

  const requested = options.port ?? 0;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(requested, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    throw new BootyError('BOOTY_E_INSPECTOR', {
      op: `listen on ${host}:${requested}`,
      reason: (err as Error).message,
    });
  }
  const { port } = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  origins = new Set(['127.0.0.1', 'localhost', '[::1]', shown].map((h) => `http://${h}:${port}`));

  return {
    url: `http://${shown}:${port}/`,
    wsUrl: `ws://${shown}:${port}/`,
    port,
    publish(line) {
      history.push(line);
      if (history.length > limit) history.shift();
      for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(line);
    },
    viewed: () => viewed,
    fallbackTo: (url) => {
      fallback = url;
    },
    async close() {
      await Promise.all([...wss.clients].map(closeViewer));
      await new Promise<void>((resolve) => {
        wss.close(() => server.close(() => resolve()));
        server.closeAllConnections();
      });
    },
  };
}

/** A clean close, so a viewer keeps what it was sent; a viewer that does not answer is cut off. */
function closeViewer(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    const cut = setTimeout(() => ws.terminate(), 1000).unref();
    ws.once('close', () => {
      clearTimeout(cut);
      resolve();
    });
    ws.close(1001, 'inspector closing');
  });
}

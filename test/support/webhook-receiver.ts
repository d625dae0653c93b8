import { createServer } from 'node:http';
import { verify } from '@octokit/webhooks-methods';

// A stand-in for booty's webhook endpoint: records every delivery the GitHub simulator sends, with
// whether its signature checks out against the secret, and answers 202.

export interface Received {
  event: string;
  action: string | null;
  delivery: string;
  signed: boolean;
  payload: any;
}

export async function startWebhookReceiver(secret: string) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', async () => {
      const payload = JSON.parse(body);
      received.push({
        event: String(req.headers['x-github-event']),
        action: payload.action ?? null,
        delivery: String(req.headers['x-github-delivery']),
        signed: await verify(secret, body, String(req.headers['x-hub-signature-256'])),
        payload,
      });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    /** The simulator's webhook target for this receiver. */
    target: { url: `http://127.0.0.1:${port}/webhooks`, secret, retryDelayMs: 1 },
    received,
    /** `event` or `event.action`, in the order received. */
    names: () => received.map((r) => (r.action ? `${r.event}.${r.action}` : r.event)),
    of: (event: string, action?: string) =>
      received.filter((r) => r.event === event && (action === undefined || r.action === action)),
    clear: () => {
      received.length = 0;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

// What stands between GitHub and many gateways in the tests: a load balancer that sends each
// delivery to the next gateway in turn, routes around one that is down, and (every `twiceEvery`th
// delivery, if asked) sends it to two gateways at the same moment, as a redelivery racing the original does.
// Headers and body pass through untouched, so GitHub's signature still holds.

export interface Fanout {
  url: string;
  /** Deliveries sent to two gateways at once. */
  doubled: number;
  /** Deliveries each gateway answered, by index. */
  answered: number[];
  close(): Promise<void>;
}

export async function startFanout(
  gateways: () => string[],
  options: { twiceEvery?: number },
): Promise<Fanout> {
  let n = 0;
  const fanout = { url: '', doubled: 0, answered: [] as number[], close: async () => {} };
  const send = async (i: number, headers: http.IncomingHttpHeaders, body: Buffer) => {
    const res = await fetch(`${gateways()[i]}/webhooks`, {
      method: 'POST',
      headers: Object.fromEntries(
        Object.entries(headers).filter(
          ([k, v]) => typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k),
        ),
      ) as Record<string, string>,
      body,
    });
    fanout.answered[i] = (fanout.answered[i] ?? 0) + 1;
    return { status: res.status, text: await res.text() };
  };
  /** The first gateway from `start` on that answers; a refused connection is a gateway that is down. */
  const sendFrom = async (start: number, headers: http.IncomingHttpHeaders, body: Buffer) => {
    const count = gateways().length;
    let lastError: unknown;
    for (let k = 0; k < count; k++) {
      try {
        return await send((start + k) % count, headers, body);
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const i = n++;
      try {
        const sends = [sendFrom(i, req.headers, body)];
        if (options.twiceEvery && i % options.twiceEvery === 0) {
          fanout.doubled++;
          sends.push(sendFrom(i + 1, req.headers, body));
        }
        const [first] = await Promise.all(sends);
        res.writeHead(first!.status, { 'content-type': 'application/json' }).end(first!.text);
      } catch (err) {
        res.writeHead(502).end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fanout.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fanout.close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fanout;
}

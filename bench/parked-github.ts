// A stand-in GitHub API for the parked bench, in the bench's own process: it answers the few
// requests a woken job makes (readCi's three reads of CI on the PR head, and the progress comment's
// list, create and edit) at once, and notes when each arrived, on the same clock as the webhooks
// the bench sends. Its answers are CI with no checks on a ready PR, so readCi succeeds and the job
// parks again: the woken effect does no real work and holds no slot. Anything else gets a 404.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  path: string;
  /** performance.now() when the request arrived. */
  at: number;
}

export interface StubGitHub {
  url: string;
  requests: StubRequest[];
  /** Resolves with the arrival time of the first CI read on this sha. */
  ciReadOn(sha: string): Promise<number>;
  close(): Promise<void>;
}

const CI_READ =
  /\/commits\/([0-9a-f]{40})\/(?:check-runs|status)\b|\/actions\/runs\?.*head_sha=([0-9a-f]{40})/;

export async function startStubGitHub(): Promise<StubGitHub> {
  const requests: StubRequest[] = [];
  const firstRead = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  let comments = 0;
  const server = http.createServer((req, res) => {
    const at = performance.now();
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    requests.push({ method, path, at });
    const ci = CI_READ.exec(path);
    const sha = ci?.[1] ?? ci?.[2];
    if (sha && !firstRead.has(sha)) {
      firstRead.set(sha, at);
      waiting.get(sha)?.(at);
      waiting.delete(sha);
    }
    req.resume();
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body));
      };
      if (method === 'GET' && /\/check-runs\b/.test(path))
        return send(200, { total_count: 0, check_runs: [] });
      if (method === 'GET' && /\/commits\/[0-9a-f]{40}\/status\b/.test(path))
        return send(200, { state: 'pending', sha, total_count: 0, statuses: [] });
      if (method === 'GET' && /\/actions\/runs\b/.test(path))
        return send(200, { total_count: 0, workflow_runs: [] });
      if (method === 'GET' && /\/issues\/\d+\/comments\b/.test(path)) return send(200, []);
      if (method === 'POST' && /\/issues\/\d+\/comments$/.test(path)) {
        const id = ++comments;
        return send(201, { id, body: '', html_url: `https://github.test/comment/${id}` });
      }
      if (method === 'PATCH' && /\/issues\/comments\/\d+$/.test(path)) return send(200, { id: 1, body: '' });
      send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    ciReadOn: (sha) => {
      const known = firstRead.get(sha);
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((resolve) => waiting.set(sha, resolve));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

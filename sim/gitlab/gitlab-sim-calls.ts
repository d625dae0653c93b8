import fs from 'node:fs';
import path from 'node:path';

// Which REST routes the simulator answered, in GitLab's own path words, with the fields each reply
// carried: a test holds them against api-subset.json, the routes and fields GitLab documents. Each
// route, method and status class is written once to `api-calls.jsonl` in the simulator's folder.

export interface ServedCall {
  method: string;
  /** GitLab's path for the route, as in its docs: `/projects/:id/issues/:issue_iid/notes`. */
  route: string | null;
  status: number;
  /** The reply's fields, nested ones dotted (`author.username`); a list's first item stands for it. */
  fields: string[] | null;
}

/** A route's `:name` segments as one-segment wildcards. */
export function routePattern(template: string): RegExp {
  const body = template
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '([^/]+)' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}$`);
}

function fieldsOf(json: unknown): string[] | null {
  const item = Array.isArray(json) ? json[0] : json;
  if (!item || typeof item !== 'object') return null;
  return Object.entries(item).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) ? [k, ...Object.keys(v).map((n) => `${k}.${n}`)] : [k],
  );
}

export function callRecorder(dir: string) {
  const file = path.join(dir, 'api-calls.jsonl');
  const seen = new Set<string>();
  return (call: { method: string; route: string | null; status: number; json?: unknown }) => {
    const key = `${call.method} ${call.route} ${Math.floor(call.status / 100)}`;
    // An empty list says nothing of the fields: wait for one with an item.
    const fields = call.json === undefined ? null : fieldsOf(call.json);
    if (seen.has(key) || (Array.isArray(call.json) && fields === null && call.status < 300)) return;
    seen.add(key);
    const served: ServedCall = { method: call.method, route: call.route, status: call.status, fields };
    fs.appendFileSync(file, `${JSON.stringify(served)}\n`);
  };
}

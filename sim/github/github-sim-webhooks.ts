import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { sign } from '@octokit/webhooks-methods';
import { githubTime } from './github-sim-json.js';
import type { SimDelivery } from './github-sim-state.js';

// Webhook deliveries as GitHub sends them: the payload starts from GitHub's own example in
// @octokit/webhooks-examples with the simulator's records filled in, signed with the shared
// secret, and carrying GitHub's headers. A failed delivery is retried a few times.

const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as {
  name: string;
  examples: Record<string, any>[];
}[];

/**
 * GitHub's own example of an event: the one with this action, else the event's first (GitHub
 * publishes no `issues.closed`, for one); the payload keeps its fields and their order.
 */
export function exampleOf(event: string, action: string | null): Record<string, any> {
  const all = examples.find((e) => e.name === event)?.examples;
  if (!all?.length) throw new Error(`@octokit/webhooks-examples has no ${event} event`);
  const found = all.find((e) => (e.action ?? null) === action) ?? all[0]!;
  return structuredClone(found);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A payload from GitHub's example: the simulator's records replace the example's (a record's own
 * fields win, fields it lacks keep the example's), a field given as undefined is dropped, and the
 * example's organization goes, as the simulator's owners are users.
 */
export function payloadFrom(
  event: string,
  action: string | null,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const payload = exampleOf(event, action);
  delete payload.organization;
  delete payload.enterprise;
  delete payload.installation;
  if (action !== null) payload.action = action;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) delete payload[key];
    else payload[key] = isObject(payload[key]) && isObject(value) ? { ...payload[key], ...value } : value;
  }
  return payload;
}

export interface WebhookTarget {
  url: string;
  secret: string;
  /** Deliveries tried per event before giving up; default 3. */
  attempts?: number;
  /** Pause before a retry, doubled each time; default 200 ms. */
  retryDelayMs?: number;
  /**
   * The events this hook is subscribed to, as a repository webhook's "individual events"; default
   * every event. An App registered from a manifest also gets only the events it subscribed to.
   */
  events?: string[];
}

export function newDelivery(
  event: string,
  action: string | null,
  payload: Record<string, unknown>,
): SimDelivery {
  return {
    id: randomUUID(),
    event,
    action,
    payload: JSON.stringify(payload),
    attempts: 0,
    status: null,
    error: null,
    at: new Date().toISOString(),
    tries: [],
  };
}

/** How one POST is told apart, and given its id in GitHub's delivery API. */
export interface SendKind {
  redelivery: boolean;
  nextId: () => number;
}

/**
 * POSTs a delivery until it is accepted (2xx) or the attempts run out; the record is updated in
 * place, each POST kept as one of its tries.
 */
export async function deliver(
  target: WebhookTarget,
  delivery: SimDelivery,
  hook: { id: number; app: boolean },
  kind: SendKind,
  stopped: () => boolean = () => false,
): Promise<SimDelivery> {
  const attempts = target.attempts ?? 3;
  const delay = target.retryDelayMs ?? 200;
  for (let i = 0; i < attempts && !stopped(); i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, delay * 2 ** (i - 1)));
    delivery.attempts += 1;
    const started = new Date();
    const tried = (statusCode: number, status: string) =>
      delivery.tries.push({
        id: kind.nextId(),
        at: githubTime(started),
        redelivery: kind.redelivery,
        statusCode,
        status,
        durationMs: Date.now() - started.getTime(),
      });
    try {
      const res = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/simulator',
          'x-github-event': delivery.event,
          'x-github-delivery': delivery.id,
          'x-github-hook-id': String(hook.id),
          // An App's deliveries come from its integration hook, a repository webhook's from the repository.
          'x-github-hook-installation-target-type': hook.app ? 'integration' : 'repository',
          'x-github-hook-installation-target-id': String(hook.id),
          'x-hub-signature': `sha1=${createHmac('sha1', target.secret).update(delivery.payload).digest('hex')}`,
          'x-hub-signature-256': await sign(target.secret, delivery.payload),
        },
        body: delivery.payload,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      delivery.status = res.status;
      delivery.error = res.ok ? null : `HTTP ${res.status}`;
      tried(res.status, res.status < 300 ? 'OK' : `Invalid HTTP Response: ${res.status}`);
      if (res.ok) return delivery;
    } catch (err) {
      delivery.status = null;
      delivery.error = (err as Error).message;
      tried(0, (err as Error).name === 'TimeoutError' ? 'timed out' : 'failed to connect to host');
    }
  }
  return delivery;
}

import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import { loadEnv } from '../../src/env.js';
import type { ReadIssue } from '../../src/gateway/jobs-write-routes.js';
import { createMetrics } from '../../src/gateway/metrics.js';
import { createLogger } from '../../src/log.js';
import type { EffectImpls } from '../../src/machines/effect-contract.js';
import { composeBooty } from '../../src/main/compose.js';
import { type RunningServer, startServer } from '../../src/main/serve.js';
import type { EventStore } from '../../src/store/event-store.js';
import { tempDir } from '../support/job-harness.js';
import { scriptedEffects } from '../support/scripted-effects.js';

// A real gateway on 127.0.0.1, a real SQLite file, scripted effects, and deliveries built from
// GitHub's published examples and signed the way GitHub signs them.

export const SECRET = 'current-webhook-secret';
export const PREVIOUS_SECRET = 'previous-webhook-secret';
export const TRIGGER = 'booty';

const require = createRequire(import.meta.url);
const definitions = require('@octokit/webhooks-examples') as WebhookDefinition[];

/** A deep copy of GitHub's example payload for `event` (and `action`), optionally changed. */
export function example(event: string, action?: string, index = 0): any {
  const def = definitions.find((d) => d.name === event);
  const found = (def?.examples ?? []).filter((e: any) => action === undefined || e.action === action);
  if (!found[index]) throw new Error(`no example for ${event}.${action ?? '*'}`);
  return structuredClone(found[index]);
}

/** issues.labeled / unlabeled with the given label on issue `issue` of `repo` (owner/name). */
export function labelPayload(
  action: 'labeled' | 'unlabeled',
  options: { label?: string; repo?: string; issue?: number } = {},
) {
  const p = example('issues', action);
  p.label.name = options.label ?? TRIGGER;
  if (options.repo) setRepo(p, options.repo);
  if (options.issue) p.issue.number = options.issue;
  return p;
}

/** The examples have no issues.closed: GitHub sends the reopened shape with the state flipped. */
export function closedPayload(options: { repo?: string; issue?: number } = {}) {
  const p = example('issues', 'reopened');
  p.action = 'closed';
  p.issue.state = 'closed';
  if (options.repo) setRepo(p, options.repo);
  if (options.issue) p.issue.number = options.issue;
  return p;
}

function setRepo(p: any, fullName: string) {
  const [owner, name] = fullName.split('/');
  p.repository.name = name;
  p.repository.full_name = fullName;
  p.repository.owner.login = owner;
}

export const signBody = (secret: string, body: string | Buffer) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

let deliveries = 0;
export const newDeliveryId = () => `d-${process.pid}-${++deliveries}-${Date.now()}`;

export interface Delivery {
  event?: string | null;
  deliveryId?: string | null;
  payload?: unknown;
  /** The raw body, instead of JSON.stringify(payload). */
  body?: string | Buffer;
  secret?: string;
  signature?: string | null;
  form?: boolean;
}

/** Posts a delivery as GitHub does: a null header is left out. */
export async function deliver(url: string, d: Delivery) {
  const json = d.body ?? JSON.stringify(d.payload);
  const body = d.form && typeof json === 'string' ? `payload=${encodeURIComponent(json)}` : json;
  const headers: Record<string, string> = {
    'content-type': d.form ? 'application/x-www-form-urlencoded' : 'application/json',
    'user-agent': 'GitHub-Hookshot/test',
  };
  const event = d.event === undefined ? 'issues' : d.event;
  const deliveryId = d.deliveryId === undefined ? newDeliveryId() : d.deliveryId;
  const signature = d.signature === undefined ? signBody(d.secret ?? SECRET, body) : d.signature;
  if (event !== null) headers['x-github-event'] = event;
  if (deliveryId !== null) headers['x-github-delivery'] = deliveryId;
  if (signature !== null) headers['x-hub-signature-256'] = signature;
  const res = await fetch(`${url}/webhooks`, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as any, deliveryId, headers: res.headers };
}

/** Scripted effects whose `prepare` waits until released, so a job stays active on demand. */
export function gatedEffects(options: { gated?: boolean; tokensPerCall?: number } = {}) {
  const scripted = scriptedEffects({ tokensPerCall: options.tokensPerCall });
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  if (!options.gated) release();
  const impls: EffectImpls = {
    ...scripted.impls,
    prepare: async (input, ctx) => {
      await Promise.race([gate, new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }))]);
      return scripted.impls.prepare(input, ctx);
    },
  };
  return { impls, release, calls: scripted.calls };
}

export function captureLog() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { log: createLogger({ level: 'info', destination }), lines };
}

export interface TestServer extends RunningServer {
  lines: string[];
  release: () => void;
  db: string;
}

export async function startTestServer(
  options: {
    env?: Record<string, string>;
    gated?: boolean;
    store?: EventStore;
    db?: string;
    /** How `POST /jobs` reads an issue (the effects are scripted: there is no GitHub client). */
    readIssue?: ReadIssue;
  } = {},
): Promise<TestServer> {
  const db = options.db ?? path.join(tempDir('booty-gateway-'), 'booty.db');
  const env = loadEnv({
    HOST: '127.0.0.1',
    PORT: '0',
    BOOTY_DB: db,
    GITHUB_WEBHOOK_SECRET: SECRET,
    GITHUB_WEBHOOK_SECRET_PREVIOUS: PREVIOUS_SECRET,
    BOOTY_TRIGGER_LABEL: TRIGGER,
    // A test's close stops its jobs at once (test/e2e/drain.test.ts drains them).
    BOOTY_DRAIN_MS: '0',
    ...options.env,
  });
  const { log, lines } = captureLog();
  const metrics = createMetrics({ defaultMetrics: false });
  const effects = gatedEffects({ gated: options.gated });
  const server = await startServer(
    await composeBooty({ env, log, metrics, effects: effects.impls, store: options.store, server: true }),
    undefined,
    options.readIssue,
  );
  return { ...server, lines, release: effects.release, db };
}

// webhook: signed deliveries with unique ids posted by autocannon to the gateway started by
// startServer (verified, classified, deduplicated and durably recorded; non-trigger labels, so no
// job runs), against a bare fastify route taking the same bodies, in the same run. Each server runs
// in a child process of its own, as `booty serve` would, so the load generator does not share its
// event loop.
import { fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { pino } from 'pino';
import { toActors } from '../src/actors/effect.js';
import { loadEnv } from '../src/env.js';
import { startServer } from '../src/gateway/serve.js';
import { createLogger } from '../src/log.js';
import { jobMachine } from '../src/machines/job.js';
import { scriptedEffects } from '../test/support/scripted-effects.js';
import { type BenchResult, ratio, round } from './bench-result.js';

const SECRET = 'bench-webhook-secret';
const CONNECTIONS = 10;
const WARMUP_SECONDS = 1;
const SECONDS = 5;
/**
 * p99 is taken at a fixed rate, far above what a GitHub App receives (250/s is 21 M a day): at
 * saturation a closed-loop client measures its own queue (latency = connections / throughput).
 */
const LATENCY_RATE = 250;
const TARGET_ENV = 'BOOTY_WEBHOOK_BENCH_TARGET';

type Target = 'booty' | 'baseline';

interface Run {
  rps: number;
  p99: number;
  p99Saturated: number;
}

interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), '..');
const require = createRequire(import.meta.url);

/** GitHub's issues.labeled example with a label that is not the trigger, signed as GitHub signs it. */
function delivery() {
  const definitions = require('@octokit/webhooks-examples') as { name: string; examples: any[] }[];
  const payload = structuredClone(
    definitions.find((d) => d.name === 'issues')!.examples.find((e) => e.action === 'labeled'),
  );
  payload.label.name = 'bug';
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  return { body, signature };
}

async function load(url: string, seconds: number, runId: string, rate?: number): Promise<AutocannonResult> {
  const autocannon = require('autocannon') as Autocannon;
  const { body, signature } = delivery();
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        method: 'POST',
        path: '/webhooks',
        body,
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issues',
          'x-hub-signature-256': signature,
        },
        // A fresh delivery id on every request, so none is taken for a duplicate.
        setupRequest: (req: { headers: Record<string, string> }) => {
          req.headers = { ...req.headers, 'x-github-delivery': `${runId}-${++n}` };
          return req;
        },
      },
    ],
  });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(
      `webhook bench: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return result;
}

async function measure(target: Target): Promise<Run> {
  const db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'booty-bench-')), 'booty.db');
  const child = fork(here, [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, [TARGET_ENV]: target, BOOTY_DB: db },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve(m.url));
    exited.then((code) => reject(new Error(`webhook bench: ${target} server exited with ${code}`)));
  });
  try {
    const warm = await load(url, WARMUP_SECONDS, `${target}-warm`);
    const saturated = await load(url, SECONDS, `${target}-max`);
    const steady = await load(url, SECONDS, `${target}-rate`, LATENCY_RATE);
    child.send('stop');
    if ((await exited) !== 0) throw new Error(`webhook bench: ${target} server did not stop cleanly`);
    if (target === 'booty') {
      // Every accepted delivery must be in the database after a clean stop. A few more may be:
      // autocannon stops counting with one request still in flight on each connection.
      const sqlite = new Database(db, { readonly: true });
      const stored = sqlite.prepare('SELECT count(*) FROM deliveries').pluck().get() as number;
      sqlite.close();
      const accepted = warm['2xx'] + saturated['2xx'] + steady['2xx'];
      if (stored < accepted || stored > accepted + 3 * CONNECTIONS)
        throw new Error(`webhook bench: ${accepted} deliveries accepted but ${stored} recorded`);
    }
    return { rps: saturated.requests.average, p99: steady.latency.p99, p99Saturated: saturated.latency.p99 };
  } finally {
    if (child.exitCode === null) child.kill();
    fs.rmSync(path.dirname(db), { recursive: true, force: true });
  }
}

export default async function run(): Promise<BenchResult[]> {
  const baseline = await measure('baseline');
  const booty = await measure('booty');
  return [
    {
      name: 'webhook',
      metric: 'throughput',
      value: round(booty.rps),
      baseline: round(baseline.rps),
      ratio: ratio(booty.rps, baseline.rps),
      unit: 'req/s',
      goal: '>= 0.5',
    },
    {
      name: 'webhook',
      metric: 'p99',
      value: booty.p99,
      baseline: baseline.p99,
      ratio: ratio(booty.p99, baseline.p99),
      unit: 'ms',
      goal: '<= 10',
    },
    {
      name: 'webhook',
      metric: 'p99_saturated',
      value: booty.p99Saturated,
      baseline: baseline.p99Saturated,
      ratio: ratio(booty.p99Saturated, baseline.p99Saturated),
      unit: 'ms',
      goal: `report only (${CONNECTIONS} connections, no rate limit)`,
    },
  ];
}

/** The server side, run in the child process. */
async function serve(target: Target) {
  let close: () => Promise<void>;
  let url: string;
  if (target === 'baseline') {
    const app = Fastify({ bodyLimit: 25 * 1024 * 1024 });
    app.post('/webhooks', async (_req, reply) => reply.code(202).send({ ok: true }));
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    close = () => app.close();
  } else {
    const env = loadEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      BOOTY_DB: process.env.BOOTY_DB,
      GITHUB_WEBHOOK_SECRET: SECRET,
    });
    // booty serve logs one JSON line per delivery at info: keep that cost, discard the output.
    const log = createLogger({ level: 'info', destination: pino.destination({ dest: '/dev/null' }) });
    const machine = jobMachine.provide({ actors: toActors(scriptedEffects().impls) as any });
    const server = await startServer({ env, machine, log });
    url = server.url;
    close = server.close;
  }
  process.on('message', () => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  process.send!({ url });
}

if (process.env[TARGET_ENV]) await serve(process.env[TARGET_ENV] as Target);

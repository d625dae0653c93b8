// webhook: signed deliveries with unique ids posted by autocannon to the gateway started by
// startServer (verified, classified, deduplicated and durably recorded; non-trigger labels, so no
// job runs), against a bare fastify route taking the same bodies, in the same run: it checks each
// delivery came from the forge and parses it, as any receiver must (receiverRoute), and no more.
//
// Each server runs in a child process of its own, as `booty serve` would, so the load generator
// does not share its event loop; booty's is the built package (dist/, so `npm run bench` builds
// first). autocannon runs closed-loop with 10 connections; p99 is taken
// under that full load (its fixed-rate mode sends each second's quota in a burst, so it measures
// the same queue). The machine is shared, so the two targets take turns in short rounds and drift
// in the neighbours' load falls on both alike; CPU time per request, which the neighbours barely
// touch, is reported beside the wall-clock figures.
import { type ChildProcess, fork } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { scriptedEffects } from '../test/support/scripted-effects.js';
import { type BenchResult, ratio, round } from './bench-result.js';
import { built } from './built.js';

const SECRET = 'bench-webhook-secret';
const CONNECTIONS = 10;
const WARMUP_SECONDS = 1;
/** Each target takes this many rounds, in turns; throughput and p99 come from the same rounds. */
const ROUNDS = 2;
const ROUND_SECONDS = 2.5;
/** The steady load p99 is measured at: far above what one GitHub org sends, well below saturation. */
const PACED_RATE = 500;
const PACED_SECONDS = 3;
const TARGET_ENV = 'BOOTY_WEBHOOK_BENCH_TARGET';

/**
 * booty serving GitHub, booty serving GitLab (BOOTY_FORGE=gitlab), and the bare route, fed GitHub's
 * deliveries (`baseline`) and GitLab's (`baseline-gitlab`): each forge's ratio is against the bare
 * route taking the same bodies, so the ratios compare booty's own work, not the payloads' sizes.
 * The two baselines differ about 2× for what each forge asks of any receiver: GitHub's delivery is
 * 11.8 KB, read, HMAC-signed (about 10 µs) and parsed (about 21 µs); GitLab's is 3.9 KB, its token
 * compared (under 1 µs) and parsed (about 13 µs). booty's own cost per delivery (recording it,
 * classifying it, its logger) is about the same for both, so it weighs twice as much against GitLab's.
 */
type Target = 'booty' | 'gitlab' | 'baseline' | 'baseline-gitlab';
/** What a target's process runs: the bare route serves both baselines. */
const processOf = (t: Target) => (t === 'baseline-gitlab' ? 'baseline' : t);

interface AutocannonResult {
  requests: { average: number; sent: number };
  latency: { p99: number };
  duration: number;
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), '..');
const require = createRequire(import.meta.url);

/**
 * What a target is sent: GitHub's issues.labeled example with a label that is not the trigger,
 * signed as GitHub signs it (booty and the bare route take it); for GitLab, an Issue Hook adding a
 * label that is not the trigger, with its token. `idHeader` takes a fresh id on every request.
 */
function delivery(target: Target) {
  if (target === 'gitlab' || target === 'baseline-gitlab') {
    // The fields of GitLab's documented Issue Hook (doc/user/project/integrations/webhook_events.md).
    const at = '2026-01-01 10:00:00 UTC';
    const label = (id: number, title: string) => ({
      id,
      title,
      color: '#d9534f',
      project_id: 7,
      created_at: at,
      updated_at: at,
      template: false,
      description: `${title} label`,
      type: 'ProjectLabel',
      group_id: null,
    });
    const user = {
      id: 1,
      name: 'Administrator',
      username: 'root',
      avatar_url: 'https://www.gravatar.com/avatar/e64c7d89f26bd1972efa854d13d7dd61?s=80&d=identicon',
      email: '[REDACTED]',
    };
    const web = 'https://gitlab.test/group/project';
    const payload = {
      object_kind: 'issue',
      event_type: 'issue',
      user,
      project: {
        id: 7,
        name: 'project',
        description: 'Aut reprehenderit ut est.',
        web_url: web,
        avatar_url: null,
        git_ssh_url: 'git@gitlab.test:group/project.git',
        git_http_url: `${web}.git`,
        namespace: 'group',
        visibility_level: 20,
        path_with_namespace: 'group/project',
        default_branch: 'main',
        ci_config_path: null,
        homepage: web,
        url: 'git@gitlab.test:group/project.git',
        ssh_url: 'git@gitlab.test:group/project.git',
        http_url: `${web}.git`,
      },
      object_attributes: {
        author_id: 1,
        closed_at: null,
        confidential: false,
        created_at: at,
        description:
          'It should parse durations like "1h 30m" into milliseconds.\n\n- hours\n- minutes\n- days',
        discussion_locked: null,
        due_date: null,
        id: 301,
        iid: 4,
        last_edited_at: null,
        last_edited_by_id: null,
        milestone_id: null,
        moved_to_id: null,
        duplicated_to_id: null,
        project_id: 7,
        relative_position: 1073742323,
        state_id: 1,
        time_estimate: 0,
        title: 'Add a parser',
        updated_at: at,
        updated_by_id: 1,
        weight: null,
        health_status: null,
        url: `${web}/-/issues/4`,
        total_time_spent: 0,
        time_change: 0,
        human_total_time_spent: null,
        human_time_change: null,
        human_time_estimate: null,
        assignee_ids: [1],
        assignee_id: 1,
        labels: [label(206, 'API'), label(207, 'bug')],
        state: 'opened',
        severity: 'unknown',
        customer_relations_contacts: [],
        action: 'update',
      },
      repository: {
        name: 'project',
        url: 'git@gitlab.test:group/project.git',
        description: 'Aut reprehenderit ut est.',
        homepage: web,
      },
      assignees: [user],
      assignee: user,
      labels: [label(206, 'API'), label(207, 'bug')],
      changes: {
        updated_by_id: { previous: null, current: 1 },
        updated_at: { previous: at, current: at },
        labels: { previous: [label(206, 'API')], current: [label(206, 'API'), label(207, 'bug')] },
      },
    };
    return {
      body: JSON.stringify(payload),
      headers: {
        'content-type': 'application/json',
        'x-gitlab-event': 'Issue Hook',
        'x-gitlab-token': SECRET,
      },
      idHeader: 'x-gitlab-event-uuid',
    };
  }
  const definitions = require('@octokit/webhooks-examples') as { name: string; examples: any[] }[];
  const payload = structuredClone(
    definitions.find((d) => d.name === 'issues')!.examples.find((e) => e.action === 'labeled'),
  );
  payload.label.name = 'bug';
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issues',
      'x-hub-signature-256': signature,
    },
    idHeader: 'x-github-delivery',
  };
}

let runs = 0;
async function load(url: string, seconds: number, target: Target): Promise<AutocannonResult> {
  const autocannon = require('autocannon') as Autocannon;
  const { body, headers, idHeader } = delivery(target);
  const runId = `run${++runs}`;
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/webhooks',
        body,
        headers,
        // A fresh delivery id on every request, so none is taken for a duplicate.
        setupRequest: (req: { headers: Record<string, string> }) => {
          req.headers = { ...req.headers, [idHeader]: `${runId}-${++n}` };
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

/**
 * Latency at a steady load, open loop: one delivery every 1/rate seconds whether or not earlier ones
 * were answered, each timed from when it was due (so a stall counts against every request it
 * delays, with no coordinated omission). autocannon cannot pace like this: its rate limit sends
 * each second's quota in a burst.
 */
async function paced(url: string, rate: number, seconds: number, to: Target): Promise<number[]> {
  const { body, headers, idHeader } = delivery(to);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL('/webhooks', url);
  const runId = `paced${++runs}`;
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let failures = 0;
  const send = (i: number, due: number) =>
    new Promise<void>((resolve) => {
      const req = http.request(
        target,
        {
          method: 'POST',
          agent,
          headers: { ...headers, [idHeader]: `${runId}-${i}` },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 202) failures++;
            latencies.push(performance.now() - due);
            resolve();
          });
        },
      );
      req.on('error', () => {
        failures++;
        resolve();
      });
      req.end(body);
    });
  const start = performance.now() + 20;
  const pending: Promise<void>[] = [];
  let next = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      while (next < total && start + (next * 1000) / rate <= now) {
        pending.push(send(next, start + (next * 1000) / rate));
        next++;
      }
      if (next >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  await Promise.all(pending);
  agent.destroy();
  if (failures) throw new Error(`webhook bench: ${failures} paced deliveries failed`);
  return latencies;
}

/** The 99th percentile of every latency measured. */
function p99(latencies: number[]): number {
  const sorted = latencies.toSorted((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.99) - 1]!;
}

/** A target server in its own process, answering `cpu` and `stop` over IPC. */
class Server {
  readonly db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'booty-bench-')), 'booty.db');
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  readonly url: Promise<string>;
  accepted = 0;
  sent = 0;

  constructor(readonly target: Target) {
    this.child = fork(here, [], {
      cwd: root,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, [TARGET_ENV]: processOf(target), BOOTY_DB: this.db },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.exited = new Promise((resolve) => this.child.on('exit', resolve));
    this.url = this.ask<{ url: string }>().then((m) => m.url);
  }

  async run(seconds: number) {
    const result = await load(await this.url, seconds, this.target);
    this.accepted += result['2xx'];
    this.sent += result.requests.sent;
    return result;
  }

  /** CPU microseconds the server has used since it was ready. */
  async cpu(): Promise<number> {
    this.child.send('cpu');
    const { cpu } = await this.ask<{ cpu: NodeJS.CpuUsage }>();
    return cpu.user + cpu.system;
  }

  async stop() {
    this.child.send('stop');
    if ((await this.exited) !== 0) throw new Error(`webhook bench: ${this.target} did not stop cleanly`);
    if (processOf(this.target) !== 'baseline') {
      // Every accepted delivery is in the database after a clean stop. A few more may be:
      // autocannon stops counting with a request still in flight on each connection.
      const sqlite = new Database(this.db, { readonly: true });
      const stored = sqlite.prepare('SELECT count(*) FROM deliveries').pluck().get() as number;
      sqlite.close();
      if (stored < this.accepted || stored > this.sent)
        throw new Error(`webhook bench: ${this.accepted} deliveries accepted but ${stored} recorded`);
    }
  }

  dispose() {
    if (this.child.exitCode === null) this.child.kill();
    fs.rmSync(path.dirname(this.db), { recursive: true, force: true });
  }

  private ask<T>(): Promise<T> {
    return new Promise((resolve, reject) => {
      this.child.once('message', (m) => resolve(m as T));
      this.exited.then((code) => reject(new Error(`webhook bench: ${this.target} exited with ${code}`)));
    });
  }
}

interface Figures {
  rps: number;
  p99: number;
  p99Saturated: number;
  cpuPerRequest: number;
}

export default async function run(): Promise<BenchResult[]> {
  const servers = {
    baseline: new Server('baseline'),
    booty: new Server('booty'),
    gitlab: new Server('gitlab'),
    baselineGitlab: new Server('baseline-gitlab'),
  };
  const targets = [servers.baseline, servers.booty, servers.baselineGitlab, servers.gitlab];
  const figures = {} as Record<Target, Figures>;
  try {
    for (const s of targets) await s.run(WARMUP_SECONDS);
    const cpuBefore = await Promise.all(targets.map((s) => s.cpu()));
    const sentBefore = targets.map((s) => s.sent);
    const totals = targets.map(() => ({ requests: 0, seconds: 0, p99: 0, paced: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, s] of targets.entries()) {
        const r = await s.run(ROUND_SECONDS);
        totals[i]!.requests += r['2xx'];
        totals[i]!.seconds += r.duration;
        // The worse round's p99: the rounds' histograms cannot be merged from their summaries.
        totals[i]!.p99 = Math.max(totals[i]!.p99, r.latency.p99);
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, s] of targets.entries()) {
        // Every round's deliveries in one percentile: a stall in one round weighs as it would
        // over the whole time at this rate, not as the round's whole 1%.
        totals[i]!.paced.push(...(await paced(await s.url, PACED_RATE, PACED_SECONDS, s.target)));
        s.sent += PACED_RATE * PACED_SECONDS;
        s.accepted += PACED_RATE * PACED_SECONDS;
      }
    }
    const cpuAfter = await Promise.all(targets.map((s) => s.cpu()));
    for (const [i, s] of targets.entries()) {
      figures[s.target] = {
        rps: totals[i]!.requests / totals[i]!.seconds,
        p99: p99(totals[i]!.paced),
        p99Saturated: totals[i]!.p99,
        cpuPerRequest: (cpuAfter[i]! - cpuBefore[i]!) / (s.sent - sentBefore[i]!),
      };
    }
    for (const s of targets) await s.stop();
  } finally {
    for (const s of targets) s.dispose();
  }
  const rows = (
    name: string,
    of: Figures,
    baseline: Figures,
    goals: { throughput: string; p99: string },
  ): BenchResult[] => {
    const row = (metric: string, unit: string, goal: string, value: number, base: number): BenchResult => ({
      name,
      metric,
      value: round(value),
      baseline: round(base),
      ratio: ratio(value, base),
      unit,
      goal,
    });
    return [
      row('throughput', 'req/s', goals.throughput, of.rps, baseline.rps),
      row('p99', `ms at a steady ${PACED_RATE} deliveries/s, open loop`, goals.p99, of.p99, baseline.p99),
      row(
        'p99_saturated',
        `ms with ${CONNECTIONS} connections flat out`,
        'report only',
        of.p99Saturated,
        baseline.p99Saturated,
      ),
      row('cpu_per_request', 'µs', 'report only', of.cpuPerRequest, baseline.cpuPerRequest),
    ];
  };
  const github = rows('webhook', figures.booty, figures.baseline, {
    throughput: 'ratio >= 0.5',
    p99: 'ratio <= 2',
  });
  // GitLab's row: its throughput ratio at least GitHub's from this run less 10% of it (issue #32).
  // The bound is printed to the ratios' own three places, rounded up so that a ratio printed as
  // meeting it does (it was printed to one place: 0.6 for 0.722 × 0.9 = 0.6498).
  const githubRatio = github[0]!.ratio!;
  const bound = Math.ceil((Math.round(githubRatio * 1000) * 9) / 10) / 1000;
  const gitlabGoal = `ratio >= ${bound} (GitHub's ${githubRatio}, less 10%)`;
  return [
    ...github,
    ...rows('webhook-gitlab', figures.gitlab, figures['baseline-gitlab'], {
      throughput: gitlabGoal,
      p99: 'ratio <= 2',
    }),
  ];
}

/**
 * The bare route does what any webhook receiver must before it may act on a delivery, and no
 * more: it reads the raw body, checks that the forge sent it (GitHub: the body's HMAC-SHA256 with
 * the secret; GitLab: the token; each compared in constant time), and parses it. Both forges' deliveries meet this one method, so the GitHub and GitLab rows compare alike.
 */
function receiverRoute(app: FastifyInstance) {
  const secret = Buffer.from(SECRET);
  const fromForge = (headers: http.IncomingHttpHeaders, body: Buffer) => {
    const signature = headers['x-hub-signature-256'];
    if (typeof signature === 'string') {
      const want = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
      const got = Buffer.from(signature);
      return got.length === want.length && timingSafeEqual(got, want);
    }
    const token = headers['x-gitlab-token'];
    return (
      typeof token === 'string' &&
      token.length === secret.length &&
      timingSafeEqual(Buffer.from(token), secret)
    );
  };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.post('/webhooks', async (request, reply) => {
    const body = request.body as Buffer;
    if (!fromForge(request.headers, body)) return reply.code(401).send({ error: 'not from the forge' });
    JSON.parse(body.toString('utf8'));
    return reply.code(202).send({ ok: true });
  });
}

/** The server side, run in the child process. */
async function serve(target: Target) {
  let close: () => Promise<void>;
  let url: string;
  if (target === 'baseline') {
    const app = Fastify({ bodyLimit: 25 * 1024 * 1024 });
    receiverRoute(app);
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    close = () => app.close();
  } else {
    const forge =
      target === 'gitlab'
        ? {
            BOOTY_FORGE: 'gitlab',
            GITLAB_WEBHOOK_SECRET: SECRET,
            GITLAB_TOKEN: 'glpat-bench-token-000000000',
          }
        : { GITHUB_WEBHOOK_SECRET: SECRET };
    // What ships, as `booty serve` runs it, not the sources through tsx's loader, whose helpers
    // cost a closure made per request its own property write.
    const [{ loadEnv }, { createLogger }, { composeBooty }, { startServer }] = await Promise.all([
      built<typeof import('../src/env.js')>('src/env.js'),
      built<typeof import('../src/log.js')>('src/log.js'),
      built<typeof import('../src/main/compose.js')>('src/main/compose.js'),
      built<typeof import('../src/main/serve.js')>('src/main/serve.js'),
    ]);
    const env = loadEnv({ HOST: '127.0.0.1', PORT: '0', BOOTY_DB: process.env.BOOTY_DB, ...forge });
    // booty serve logs as it would in production (info); the output is discarded.
    const log = createLogger({ level: 'info', destination: pino.destination({ dest: '/dev/null' }) });
    const server = await startServer(
      await composeBooty({ env, log, effects: scriptedEffects().impls, server: true }),
    );
    url = server.url;
    close = server.close;
  }
  const ready = process.cpuUsage();
  process.on('message', (command) => {
    if (command === 'cpu') process.send!({ cpu: process.cpuUsage(ready) });
    else
      close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
  process.send!({ url });
}

if (process.env[TARGET_ENV]) await serve(process.env[TARGET_ENV] as Target);

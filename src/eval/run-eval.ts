import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import PQueue from 'p-queue';
import { startGitHubSimulator } from '../../sim/github/github-simulator.js';
import type { JobObserver } from '../engine/supervisor.js';
import { loadEnv } from '../env.js';
import { BootyError } from '../errors.js';
import { createLogger } from '../log.js';
import type { JobSnapshot } from '../machines/fold.js';
import { stateName } from '../machines/job-states.js';
import { startBooty } from '../main/serve.js';
import type { SandboxMode } from '../sandbox/bwrap.js';
import type { Miss } from './cassette.js';
import { type GoldAnswer, goldAnswer } from './gold-answer.js';
import { runHiddenTests } from './hidden-tests.js';
import { type ModelMode, startModelEndpoint } from './model-endpoint.js';
import type { EvalTask } from './task-format.js';
import { EVAL_OWNER, type ImportedTask, importTask } from './task-import.js';
import { failedTask, type TaskResult, type TaskRun, taskResult } from './task-result.js';

// `booty eval`: each task as a real job, on this machine. The local GitHub simulator holds one
// repository per task at its base commit; booty serves as `serve` does (its database and job logs
// in DIR); each task's issue is opened and labeled, the job runs to where it stops (promoted, a
// draft waiting in prOpened, or failed), and the hidden tests then judge the commit it left.

export const EVAL_LABEL = 'booty';
const BOT = 'booty-eval';

export interface EvalProgress {
  /** A task's job reached a new state, or the task moved on (`hidden`: its tests run). */
  state(update: { id: string; state: string; attempt: number; at: number }): void;
  done(result: TaskResult, timing: TaskRun): void;
}

export interface EvalOptions {
  tasks: EvalTask[];
  dir: string;
  mode: ModelMode;
  /** BOOTY_MODEL: the model booty asks for (and prices by). */
  model?: string;
  concurrency: number;
  maxAttempts?: number;
  /** The environment of the command: the key and ANTHROPIC_BASE_URL for the real API, BOOTY_SANDBOX. */
  env: NodeJS.ProcessEnv;
  progress?: EvalProgress;
}

export interface EvalRun {
  results: TaskResult[];
  tasks: TaskRun[];
  model: string;
  db: string;
  /** Requests a replay could not answer: the run is not the recorded one. */
  misses: Miss[];
  exchanges: number;
  wallMs: number;
}

export async function runEval(options: EvalOptions): Promise<EvalRun> {
  const started = performance.now();
  const dir = path.resolve(options.dir);
  fs.mkdirSync(dir, { recursive: true });
  const db = path.join(dir, 'booty.db');
  if (fs.existsSync(db)) throw new BootyError('BOOTY_E_EVAL_DIR_USED', { dir, file: 'booty.db' });
  const token = `ghp_eval${randomBytes(16).toString('hex')}`;
  const secret = randomBytes(16).toString('hex');
  const github = await startGitHubSimulator({
    dir: path.join(dir, 'github'),
    tokens: [{ token, login: BOT }],
  });
  const closers: (() => Promise<void>)[] = [() => github.close()];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => {});
  };
  try {
    const imported = new Map<string, ImportedTask | { error: string }>();
    const gold = new Map<string, GoldAnswer>();
    const setup = new PQueue({ concurrency: Math.max(2, options.concurrency) });
    await setup.addAll(
      options.tasks.map((task) => async () => {
        try {
          const repo = await importTask(task, github);
          if (options.mode.kind === 'oracle') {
            if (!task.goldPatch) throw new Error('it has no gold patch, which --oracle answers with');
            gold.set(
              task.id,
              await goldAnswer(repo.bare, repo.head, task.goldPatch).catch((err: Error) => {
                throw new Error(`its gold patch does not apply: ${err.message}`);
              }),
            );
          }
          imported.set(task.id, repo);
        } catch (err) {
          imported.set(task.id, { error: (err as Error).message });
        }
      }),
    );

    const endpoint = await startModelEndpoint(options.mode, {
      env: options.env,
      tasks: options.tasks.map((t) => ({
        repo: `${EVAL_OWNER}/${t.id}`,
        title: t.title,
        gold: options.mode.kind === 'null' ? null : (gold.get(t.id) ?? null),
      })),
    });
    closers.push(() => endpoint.close());

    const model = options.model ?? options.env.BOOTY_MODEL ?? 'claude-sonnet-4-6';
    const env = loadEnv({
      ...sandboxSettings(options.env),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      BOOTY_DB: db,
      BOOTY_WORKDIR: path.join(dir, 'work'),
      GITHUB_API_URL: github.url,
      GITHUB_TOKEN: token,
      GITHUB_WEBHOOK_SECRET: secret,
      // The endpoint holds the real key where there is one; booty's is a stand-in.
      ANTHROPIC_API_KEY: 'booty-eval',
      ANTHROPIC_BASE_URL: endpoint.url,
      BOOTY_MODEL: model,
      BOOTY_CONCURRENCY: String(options.concurrency),
      ...(options.maxAttempts ? { BOOTY_MAX_ATTEMPTS: String(options.maxAttempts) } : {}),
    });
    const sandbox: SandboxMode = env.BOOTY_SANDBOX ?? 'auto';
    const log = createLogger({
      level: 'info',
      destination: fs.createWriteStream(path.join(dir, 'booty.log'), { flags: 'a' }),
    });
    const last = new Map<string, string>();
    const watcher: JobObserver = {
      changed: ({ snapshot }) => {
        const { repo, attempt } = snapshot.context;
        if (repo.owner !== EVAL_OWNER) return;
        const state = stateName(snapshot);
        if (last.get(repo.name) === state) return;
        last.set(repo.name, state);
        options.progress?.state({ id: repo.name, state, attempt, at: Date.now() });
      },
    };
    const booty = await startBooty({ env, log, observers: [watcher] });
    closers.push(() => booty.close());
    github.setWebhook({ url: `${booty.server.url}/webhooks`, secret });

    const workRoot = path.join(dir, 'hidden');
    fs.mkdirSync(workRoot, { recursive: true });
    const results: TaskResult[] = [];
    const runs: TaskRun[] = [];
    const finish = (result: TaskResult, timing: TaskRun) => {
      results.push(result);
      runs.push(timing);
      options.progress?.done(result, timing);
    };

    const runTask = async (task: EvalTask) => {
      const t0 = performance.now();
      const repo = imported.get(task.id)!;
      if ('error' in repo) {
        finish(failedTask(task.id, task.tags, repo.error), {
          id: task.id,
          jobId: null,
          commit: null,
          wallMs: 0,
          jobMs: 0,
          hiddenMs: 0,
        });
        return;
      }
      const issue = github.createIssue(repo.owner, repo.name, {
        title: task.title,
        body: task.body,
        author: 'eval',
      }) as {
        number: number;
      };
      await github.labelIssue(repo.owner, repo.name, issue.number, EVAL_LABEL);
      const key = `${repo.owner}/${repo.name}`;
      const jobId = (await booty.store.jobsForIssue(key, issue.number)).at(-1)?.jobId;
      if (!jobId) {
        finish(failedTask(task.id, task.tags, 'labeling the issue started no job; see booty.log'), {
          id: task.id,
          jobId: null,
          commit: null,
          wallMs: Math.round(performance.now() - t0),
          jobMs: 0,
          hiddenMs: 0,
        });
        return;
      }
      const snapshot: JobSnapshot = await booty.server.supervisor.whenFinished(jobId);
      const jobMs = Math.round(performance.now() - t0);
      const number = snapshot.context.pr?.number;
      const pull =
        number === undefined
          ? undefined
          : github.pulls(repo.owner, repo.name).find((p) => p.number === number);
      options.progress?.state({
        id: task.id,
        state: 'hidden tests',
        attempt: snapshot.context.attempt,
        at: Date.now(),
      });
      const hidden = await runHiddenTests({
        task,
        bare: repo.bare,
        commit: pull?.headSha ?? repo.head,
        workRoot,
        sandbox,
        roPaths: env.BOOTY_SANDBOX_RO_PATHS,
        passEnv: env.BOOTY_SANDBOX_ENV,
      });
      finish(
        taskResult({
          id: task.id,
          tags: task.tags,
          snapshot,
          pr: pull ? { number: pull.number, draft: pull.draft } : null,
          hidden,
        }),
        {
          id: task.id,
          jobId,
          commit: hidden.commit,
          wallMs: Math.round(performance.now() - t0),
          jobMs,
          hiddenMs: hidden.durationMs,
        },
      );
    };

    const queue = new PQueue({ concurrency: options.concurrency });
    await queue.addAll(
      options.tasks.map(
        (task) => () =>
          runTask(task).catch((err: unknown) =>
            finish(failedTask(task.id, task.tags, `the harness failed: ${(err as Error).message}`), {
              id: task.id,
              jobId: null,
              commit: null,
              wallMs: 0,
              jobMs: 0,
              hiddenMs: 0,
            }),
          ),
      ),
    );
    await booty.server.supervisor.onIdle();
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    return {
      results: results.sort(byId),
      tasks: runs.sort(byId),
      model,
      db,
      misses: endpoint.misses(),
      exchanges: endpoint.exchanges(),
      wallMs: Math.round(performance.now() - started),
    };
  } finally {
    await close();
  }
}

/**
 * The operator's sandbox settings, as their serve has them: the mode, the read-only paths, and
 * the variables passed in with their values. The eval's own settings are its own.
 */
function sandboxSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const passed = (env.BOOTY_SANDBOX_ENV ?? '').split(',').map((n) => n.trim());
  const names = ['BOOTY_SANDBOX', 'BOOTY_SANDBOX_RO_PATHS', 'BOOTY_SANDBOX_ENV', ...passed];
  return Object.fromEntries(names.filter((n) => n && env[n] !== undefined).map((n) => [n, env[n]]));
}

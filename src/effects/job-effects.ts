import type { JobObserver } from '../engine/supervisor.js';
import type { Env } from '../env.js';
import { BootyError } from '../errors.js';
import type { Forge } from '../forges/forge.js';
import type { Logger } from '../log.js';
import type { EffectImpls } from '../machines/effect-contract.js';
import { zeroUsage } from '../machines/job-context.js';
import { onFirstUse } from '../on-first-use.js';
import type { SandboxChoice } from '../sandbox/sandbox-mode.js';
import type { EventStore } from '../store/event-store.js';
import { jobViewBase } from '../views/job-link.js';
import type { Workspace } from '../workspace/workspace.js';
import { applySuggestions } from './apply-suggestions.js';
import { createConversationEffects } from './conversation-effects.js';
import { createProgressReporter, type ProgressReporter } from './progress-reporter.js';

// Every effect the machine invokes, made from the real parts (the forge, Claude, git, the sandbox),
// plus the observers that show a job to people. The composition root (main/compose.ts) builds it
// for `serve`, `run` and `demo`, so they run exactly the same job.

export interface JobRuntimeOptions {
  env: Env;
  log: Logger;
  store: EventStore;
  /** Where issues and pull requests live: the adapter main picked. */
  forge: Forge;
  /** The sandbox's mode, and who chose it (the notices that say the tests ran without bubblewrap). */
  sandbox: SandboxChoice;
  /** Removes booty's secrets from what it publishes. */
  scrub: (text: string) => string;
}

export interface JobRuntime {
  effects: EffectImpls;
  observers: JobObserver[];
  forge: Forge;
  reporter: ProgressReporter;
  /** Shutdown: forge requests and spare clones under way are cut short. */
  stop(): void;
  /** Resolves when the progress comments and the clones under way are written. */
  idle(): Promise<void>;
}

export function createJobRuntime(options: JobRuntimeOptions): JobRuntime {
  const { env, log, store, forge, sandbox, scrub } = options;
  const github = forge.effects;
  // The workspace (git, the mirror cache, the repository config), the test runners and the Claude
  // SDK load with the first job that needs them: an idle serve holds none of them.
  let made: Workspace | null = null;
  let stopped = false;
  const workspace = onFirstUse(async () => {
    const { createWorkspace } = await import('../workspace/workspace.js');
    made = createWorkspace({
      root: env.BOOTY_WORKDIR,
      remoteUrl: (repo) => forge.remote.url(repo),
      credentials: (job) => forge.remote.credentials(job),
      author: { name: env.BOOTY_GIT_AUTHOR_NAME, email: env.BOOTY_GIT_AUTHOR_EMAIL },
      log,
    });
    if (stopped) made.stop();
    return made;
  });
  const tests = onFirstUse(async () =>
    (await import('../sandbox/test-effects.js')).createTestEffects({
      workspace: await workspace(),
      sandbox: sandbox.mode,
      roPaths: env.BOOTY_SANDBOX_RO_PATHS,
      passEnv: env.BOOTY_SANDBOX_ENV,
      scrub,
    }),
  );
  const claude = onFirstUse(async () => {
    const [{ createClaudeEffects }, { repoReaderFor }, ws] = await Promise.all([
      import('../claude/claude-effects.js'),
      import('../claude/repo-reader.js'),
      workspace(),
    ]);
    return createClaudeEffects({
      apiKey: env.ANTHROPIC_API_KEY ?? '',
      baseURL: env.ANTHROPIC_BASE_URL,
      model: env.BOOTY_MODEL,
      maxInputTokens: env.BOOTY_MAX_INPUT_TOKENS,
      log,
      // The repository as it stands at the base commit: a stable prefix the prompt cache can reuse.
      repo: async (job, ref) => repoReaderFor(await ws.ensure(job), { ref: ref ?? job.workspace!.baseSha }),
    });
  });

  const effects: EffectImpls = {
    prepare: async (input, ctx) => {
      // Independent reads: the clone and the issue's comments, at once.
      const [prepared, comments] = await Promise.all([
        workspace().then((ws) => ws.prepare(input, ctx)),
        github.listIssueComments(input.job),
      ]);
      return { ...prepared, comments };
    },
    runBaseline: async (input, ctx) => (await tests()).runBaseline(input, ctx),
    analyze: async (input, ctx) => (await claude()).analyze(input, ctx),
    generate: async (input, ctx) => (await claude()).generate(input, ctx),
    refine: async (input, ctx) => (await claude()).refine(input, ctx),
    applyChanges: async (input, ctx) => (await workspace()).applyChanges(input, ctx),
    runTests: async (input, ctx) => (await tests()).runTests(input, ctx),
    openPr: async (input, ctx) => {
      const ws = await workspace();
      // The clone first (rebuilt here if it was lost), so the two reads below never both rebuild it.
      await ws.ensure(input.job, ctx.signal);
      // Independent: the push, and the dependency changes read from the clone's base commit.
      const [{ headSha, branchCreated }, dependencies] = await Promise.all([
        ws.commitAndPush(input, ctx),
        import('../workspace/dependency-changes.js').then(async ({ dependencyChanges, dependencyPaths }) =>
          dependencyChanges(
            input.job.changes,
            await ws.readBase(input.job, dependencyPaths(input.job.changes)),
          ),
        ),
      ]);
      // Logged with the PR, so every later body is written from the log alone.
      return { ...(await github.openDraftPr(input, { headSha, dependencies, branchCreated })), dependencies };
    },
    promotePr: github.promotePr,
    postPlan: github.postPlan,
    escalate: github.escalate,
    ...createConversationEffects(github, workspace),
    applySuggestions: applySuggestions(github, workspace),
    answerQuestion: async (input, ctx) => {
      const { job } = input;
      // A question on a pull request is read at its head as it is now; on an issue, at the base.
      const commit = job.pr
        ? (await (await workspace()).syncRound(job, ctx.signal)).headSha
        : job.workspace!.baseSha;
      const answered = await (await claude())
        .answer(input, ctx, commit)
        .then(({ value, usage }) => ({ answered: true, ...value, usage }))
        .catch((err: unknown) => {
          // At the budget the question is not asked: the reply says so, and the job goes on waiting.
          if (!(err instanceof BootyError) || err.code !== 'BOOTY_E_BUDGET_EXCEEDED') throw err;
          return {
            answered: false,
            answer: `This job has spent its token budget, so booty did not ask the model. A writer's \`@booty continue\` raises it once.`,
            references: [],
            usage: { ...zeroUsage, model: env.BOOTY_MODEL },
          };
        });
      const { usage, ...reply } = { commit, ...answered };
      const { replies } = await github.answerQuestions(job, reply);
      return { ...reply, usage, replies };
    },
  };

  const reporter = createProgressReporter({
    comments: forge.progress,
    store,
    log,
    scrub,
    // The comment links to the job's page only where people can open it.
    publicUrl: jobViewBase(env),
    sandbox,
  });
  // A finished job's clone goes; its branch is pushed and its log can rebuild it.
  const cleanup: JobObserver = {
    settled: async (jobId) => {
      await workspace()
        .then((ws) => ws.dispose(jobId))
        .catch((err) => log.warn({ err, jobId }, 'could not remove the workspace'));
    },
  };

  return {
    effects,
    observers: [reporter, cleanup],
    forge,
    reporter,
    stop() {
      stopped = true;
      forge.stop();
      made?.stop();
    },
    async idle() {
      await reporter.idle();
      await made?.idle();
    },
  };
}

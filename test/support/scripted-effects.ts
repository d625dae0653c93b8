import { BootyError } from '../../src/errors.js';
import type { EffectName, RepoConfig, TestCase, TestRun, Usage } from '../../src/events/effect-results.js';
import type { EffectImpls } from '../../src/machines/effect-contract.js';
import { type EffectInput, roundPushable } from '../../src/machines/job-context.js';

// Stand-in effects for machine and runner tests: each answers from a script, and every call is
// counted by its idempotency key so a test can prove what ran again after a restart.

export type Outcome = 'ok' | 'transient' | 'permanent';

export interface Script {
  /** Whether the tests pass, per attempt (1-based index into the array); default pass. */
  tests?: boolean[];
  /** Per effect, the outcome of each successive call; calls beyond the list succeed. */
  outcomes?: Partial<Record<EffectName, Outcome[]>>;
  /** A failing run is one booty could not read (verdict unknown), not a failure it saw. */
  unknown?: boolean;
  /** The baseline's command cannot run. */
  brokenBaseline?: boolean;
  /** Attempts whose every proposed change the path policy rejects. */
  rejectAttempts?: number[];
  maxAttempts?: number;
  tokensPerCall?: number;
  /** Milliseconds each effect takes, so a test can act while one is in flight. */
  delayMs?: number;
  /**
   * Counts calls outside this process (the crash test keeps them in a file), returning how many
   * calls of this effect came before; outcomes are then looked up by that count.
   */
  countCall?: (src: EffectName, key: string) => number;
  /** CI on the PR's head, per read (promotion and readCi read it); default passed. */
  ci?: CiState[];
  /**
   * CI as a function of the job and the reading effect, in place of `ci`: for a test whose process
   * restarts, where an answer must not hang on how many reads came before.
   */
  ciOf?: (src: 'promotePr' | 'readCi', job: EffectInput['job']) => CiState;
  /**
   * New lint findings per attempt (1-based index): the attempt's tests pass and `npm run lint`
   * blocks it with that many findings the base commit did not have (0: it passes).
   */
  quality?: number[];
  /** The refine controls of booty.yml (stallAfter, escalate, approval), merged into the config. */
  config?: Partial<RepoConfig>;
}

type CiState = 'none' | 'pending' | 'passed' | 'failed';

export const usage = (tokens: number): Usage => ({
  model: 'claude-test',
  inputTokens: tokens,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
});

const testCase = (id: string, status: TestCase['status']): TestCase => ({
  id,
  file: id.split(' > ')[0]!,
  name: id.split(' > ').at(-1)!,
  status,
  durationMs: 1,
  message: status === 'passed' ? null : 'expected true, got false',
});

/** A run as the test step records it: one old test that keeps passing, and the failing ones named. */
export const testRun = (passed: boolean, failing: string[] = []): Omit<TestRun, 'at'> => {
  const cases = [
    testCase('test/a.test.js > works', 'passed'),
    ...failing.map((id) => testCase(id, 'failed')),
  ];
  return {
    command: 'npm test',
    ran: true,
    passed,
    exitCode: passed ? 0 : 1,
    signal: null,
    timedOut: false,
    durationMs: 5,
    outputTail: passed ? 'ok' : `not ok ${failing.join(', ')}`,
    source: 'junit',
    cases,
    loadErrors: [],
    totals: { total: cases.length, passed: 1, failed: failing.length, errored: 0, skipped: 0 },
    broken: null,
    verdict: passed ? 'pass' : 'fail',
    reasons: passed
      ? []
      : [
          {
            code: 'changed-test-failed',
            level: 'fail',
            message: `tests fail: ${failing.join(', ')}`,
            tests: failing,
          },
        ],
    failingTests: failing,
    newFailures: failing,
    baselineFailures: [],
    changedTests: failing,
    addedTestsFailing: failing,
    sandbox: 'bwrap',
  };
};

/** Tests that pass, and `npm run lint` after them with this many new findings (0: it passes too). */
export const lintRun = (findings: number): Omit<TestRun, 'at'> => {
  const found = Array.from({ length: findings }, (_, i) => `src/index.js: finding ${i + 1}`);
  const verdict = findings ? 'fail' : 'pass';
  return {
    ...testRun(true),
    verdict,
    passed: !findings,
    ...(findings && { failureClass: 'unknown' as const }),
    quality: [
      {
        command: 'npm run lint',
        exitCode: findings ? 1 : 0,
        timedOut: false,
        durationMs: 2,
        findings: found,
        outputTail: found.join('\n'),
        verdict,
        reason: findings ? 'passed on the base commit and exited 1 after the change' : null,
        newFindings: found,
      },
    ],
  };
};

/** A baseline whose command cannot run at all. */
export const brokenBaseline = (): Omit<TestRun, 'at'> => ({
  ...testRun(false),
  ran: false,
  exitCode: 127,
  outputTail: 'sh: 1: pytesst: not found',
  source: 'none',
  cases: [],
  totals: { total: 0, passed: 0, failed: 0, errored: 0, skipped: 0 },
  broken: { reason: 'test-command-broken', message: 'the test command could not run' },
  verdict: 'unknown',
  reasons: [],
  failingTests: [],
  newFailures: [],
  changedTests: [],
  addedTestsFailing: [],
});

export function scriptedEffects(script: Script = {}) {
  const calls = new Map<string, number>();
  const perSrc = new Map<EffectName, number>();
  const log: string[] = [];

  const step = async (src: EffectName, input: EffectInput, signal: AbortSignal) => {
    calls.set(input.key, (calls.get(input.key) ?? 0) + 1);
    const n = script.countCall ? script.countCall(src, input.key) : (perSrc.get(src) ?? 0);
    perSrc.set(src, n + 1);
    log.push(input.key);
    if (script.delayMs) await new Promise((r) => setTimeout(r, script.delayMs));
    if (signal.aborted) throw new BootyError('BOOTY_E_EFFECT_TRANSIENT', { src, reason: 'aborted' });
    const outcome = script.outcomes?.[src]?.[n] ?? 'ok';
    if (outcome === 'transient')
      throw new BootyError('BOOTY_E_EFFECT_TRANSIENT', { src, reason: 'simulated 503' });
    if (outcome === 'permanent')
      throw new BootyError('BOOTY_E_EFFECT_FAILED', { src, reason: 'simulated 401' });
  };
  const tokens = script.tokensPerCall ?? 100;
  const config: RepoConfig = {
    source: 'default',
    path: null,
    test: { command: 'npm test' },
    install: null,
    timeoutSeconds: 60,
    maxAttempts: script.maxAttempts ?? 3,
    protectedPaths: [],
    sandbox: 'off',
    ...script.config,
  };

  const impls: EffectImpls = {
    prepare: async (input, { signal }) => {
      await step('prepare', input, signal);
      return {
        baseSha: 'a'.repeat(40),
        defaultBranch: 'main',
        branch: input.job.branch,
        config,
        comments: [],
      };
    },
    runBaseline: async (input, { signal }) => {
      await step('runBaseline', input, signal);
      return script.brokenBaseline ? brokenBaseline() : testRun(true);
    },
    analyze: async (input, { signal }) => {
      await step('analyze', input, signal);
      return {
        analysis: {
          summary: `Solve: ${input.job.issue.title}`,
          changeKind: 'feat',
          filesToRead: ['src/index.js'],
          filesToChange: ['src/index.js'],
          testsToAdd: ['test/index.test.js'],
          acceptanceCriteria: ['it works'],
          risks: [],
        },
        usage: usage(tokens),
      };
    },
    generate: async (input, { signal }) => {
      await step('generate', input, signal);
      return proposal(input.attempt, tokens);
    },
    refine: async (input, { signal }) => {
      await step('refine', input, signal);
      return proposal(input.attempt, tokens);
    },
    applyChanges: async (input, { signal }) => {
      await step('applyChanges', input, signal);
      const proposed = input.job.proposal?.changes ?? [];
      if (script.rejectAttempts?.includes(input.attempt)) {
        return {
          applied: [],
          rejected: proposed.map((c) => ({
            path: c.path,
            rule: 'protected',
            reason: `${c.path} is protected`,
          })),
          addedTests: [],
        };
      }
      return {
        applied: proposed,
        rejected: [],
        addedTests: proposed.filter((c) => c.path.startsWith('test/')).map((c) => c.path),
      };
    },
    runTests: async (input, { signal }) => {
      await step('runTests', input, signal);
      const findings = script.quality?.[input.attempt - 1];
      if (findings !== undefined) return lintRun(findings);
      const passed = script.tests?.[input.attempt - 1] ?? true;
      if (!passed && script.unknown) {
        const message = 'the command exited 1 and named no failing test';
        return {
          ...testRun(false),
          verdict: 'unknown',
          reasons: [{ code: 'exit-disagrees', level: 'unknown', message, tests: [] }],
        };
      }
      return testRun(passed, passed ? [] : [`adds numbers (attempt ${input.attempt})`]);
    },
    openPr: async (input, { signal }) => {
      await step('openPr', input, signal);
      return {
        number: 7,
        url: 'http://github.test/o/r/pull/7',
        nodeId: 'PR_7',
        draft: true,
        headSha: 'b'.repeat(40),
        created: true,
      };
    },
    promotePr: async (input, { signal }) => {
      await step('promotePr', input, signal);
      const read = ciRead('promotePr', input);
      return { draft: read.state !== 'passed' && read.state !== 'none', ci: read };
    },
    readCi: async (input, { signal }) => {
      await step('readCi', input, signal);
      return ciRead('readCi', input);
    },
    rerunCi: async (input, { signal }) => {
      await step('rerunCi', input, signal);
      return { sha: input.job.pr!.headSha, runs: input.job.conversation.ci?.rerunnable ?? [] };
    },
    demotePr: async (input, { signal }) => {
      await step('demotePr', input, signal);
      return { draft: true as const };
    },
    syncBranch: async (input, { signal }) => {
      await step('syncBranch', input, signal);
      return { headSha: input.job.pr!.headSha };
    },
    answerRound: async (input, { signal }) => {
      await step('answerRound', input, signal);
      const commit = roundPushable(input.job) ? `${input.job.round!.n}`.padStart(40, 'd') : null;
      return { commit, headSha: commit ?? input.job.pr!.headSha, replies: input.job.round!.triggers.length };
    },
    answerQuestion: async (input, { signal }) => {
      await step('answerQuestion', input, signal);
      const asked = input.job.round!.triggers.filter((t) => t.kind === 'question').length;
      return {
        commit: input.job.pr?.headSha ?? input.job.workspace?.baseSha ?? 'a'.repeat(40),
        answered: true,
        answer: 'It is in src/index.js.',
        references: [{ path: 'src/index.js', line: 1, endLine: null }],
        usage: usage(tokens),
        replies: asked,
      };
    },
    applySuggestions: async (input, { signal }) => {
      await step('applySuggestions', input, signal);
      return {
        changes: [{ path: 'src/index.js', content: 'suggested\n' }],
        applied: [{ commentId: 1, author: 'reviewer', path: 'src/index.js', startLine: 1, line: 1 }],
        skipped: [],
      };
    },
    postPlan: async (input, { signal }) => {
      await step('postPlan', input, signal);
      return { commentId: 900 + input.job.checkpoints.plans, url: `${input.job.issue.url}#plan` };
    },
    escalate: async (input, { signal }) => {
      await step('escalate', input, signal);
      const names = input.job.config?.escalate ?? [];
      return {
        on: input.job.pr ? ('pr' as const) : ('issue' as const),
        number: input.job.pr?.number ?? input.job.issue.number,
        users: names.filter((n) => !n.includes('/')),
        teams: names.filter((n) => n.includes('/')),
        refused: [],
      };
    },
  };
  let ciReads = 0;
  function ciRead(src: 'promotePr' | 'readCi', input: EffectInput) {
    const state = script.ciOf?.(src, input.job) ?? script.ci?.[ciReads++] ?? 'passed';
    const failed = state === 'failed';
    return {
      sha: input.job.pr!.headSha,
      state,
      total: state === 'none' ? 0 : 1,
      failing: failed
        ? [{ name: 'build', kind: 'check' as const, url: null, detail: 'expected 3, got 4' }]
        : [],
      rerunnable: failed ? [41] : [],
    };
  }
  return { impls, calls, log };
}

function proposal(attempt: number, tokens: number) {
  return {
    changes: [
      { path: 'src/index.js', content: `export const add = (a, b) => a + b; // attempt ${attempt}\n` },
      { path: 'test/index.test.js', content: `// test for attempt ${attempt}\n` },
    ],
    explanation: `attempt ${attempt}`,
    usage: usage(tokens),
  };
}

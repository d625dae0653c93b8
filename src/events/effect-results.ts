import { z } from 'zod';

// What each effect resolves with. Effect results enter the log, so they are validated here, at the
// boundary, before the machine sees them. Every result carries `at`, the time it finished.

const at = z.number().int();

export const Usage = z.object({
  model: z.string(),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  cacheReadTokens: z.number().int().min(0),
  cacheWriteTokens: z.number().int().min(0),
  costUsd: z.number().min(0),
});
export type Usage = z.infer<typeof Usage>;

export const EffectFailure = z.object({
  src: z.string(),
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  at,
  /** The wait the other side asked for before a retry (a rate limit's Retry-After). */
  retryAfterMs: z.number().int().min(0).optional(),
  /**
   * Tokens the step spent before it failed (a model call that answered, then did not parse), so
   * they count in the job's budget like a success's. Absent when nothing was spent, and in old logs.
   */
  usage: Usage.optional(),
});
export type EffectFailure = z.infer<typeof EffectFailure>;

export const RepoConfig = z.object({
  /** Where it came from: a config file, detection from the repository's files, or booty's defaults. */
  source: z.enum(['file', 'detected', 'default']),
  path: z.string().nullable(),
  test: z.object({
    command: z.string().min(1),
    /** Reports the repository writes itself (globs), read after each run. */
    report: z.array(z.string()).optional(),
  }),
  install: z.object({ command: z.string().min(1) }).nullable(),
  timeoutSeconds: z.number().int().positive(),
  maxAttempts: z.number().int().min(1).max(10),
  /** Rounds a job runs for reviews and `@booty` requests once its PR is open (absent in old logs: 5). */
  maxFollowUps: z.number().int().min(0).max(50).optional(),
  /** Rounds a job runs to fix red CI on its PR (absent in old logs: 3). */
  maxCiFixes: z.number().int().min(0).max(50).optional(),
  protectedPaths: z.array(z.string()),
  /** What the repository asked for, or null; the operator's mode wins unless this is stricter. */
  sandbox: z.enum(['auto', 'required', 'off']).nullable(),
  // The refine controls (absent in old logs: the defaults named in repo-config.ts).
  /** Attempts in a row without improvement before the loop stops (absent: 2). */
  stallAfter: z.number().int().min(1).max(10).optional(),
  /** Users and org/team names asked to review when a job gives up (absent: none). */
  escalate: z.array(z.string()).optional(),
  /** `plan`: wait for a writer's approval of the plan before generating (absent: none). */
  approval: z.enum(['plan', 'none']).optional(),
  /** Commands run after the tests; a new failure blocks promotion (absent: none). */
  quality: z.object({ commands: z.array(z.string().min(1)) }).optional(),
  /** The branch PRs target; null is the repository's default branch (absent: null). */
  baseBranch: z.string().min(1).nullable().optional(),
  /**
   * What a change must show to pass: `tests`, results booty reads (absent: the same); `exit-code`,
   * the exit status where booty cannot read enough of them (weak evidence, asked for in booty.yml).
   */
  gate: z.enum(['tests', 'exit-code']).optional(),
  /** booty.yml's dollar cap per job: it only lowers the operator's (absent: none). */
  maxUsd: z.number().positive().optional(),
});
export type RepoConfig = z.infer<typeof RepoConfig>;

export const IssueComment = z.object({
  author: z.string(),
  body: z.string(),
  /**
   * booty's answer to a question, posted by an earlier job on the issue (one that only answered):
   * a follow-up question reads what it follows. Absent: a person's comment.
   */
  answer: z.literal(true).optional(),
});
export type IssueComment = z.infer<typeof IssueComment>;

/**
 * One of the repository's instructions for agents (AGENTS.md, CLAUDE.md,
 * .github/copilot-instructions.md), read from the default branch: its text, capped.
 */
export const Instruction = z.object({
  path: z.string().min(1),
  text: z.string(),
  /** The file was longer than booty reads. */
  truncated: z.boolean(),
});
export type Instruction = z.infer<typeof Instruction>;

export const Prepared = z.object({
  at,
  baseSha: z.string().min(7),
  /**
   * The branch the job builds on and opens its PR against: booty.yml's `baseBranch`, else the
   * repository's default branch (whose config the job read either way).
   */
  defaultBranch: z.string().min(1),
  branch: z.string().min(1),
  config: RepoConfig,
  comments: z.array(IssueComment),
  /** The repository's instructions for agents on the default branch (absent in older logs: none read). */
  instructions: z.array(Instruction).optional(),
});
export type Prepared = z.infer<typeof Prepared>;

/** What one test case did in one run, as the runner's own report says. */
export const TestStatus = z.enum(['passed', 'failed', 'errored', 'skipped']);
export type TestStatus = z.infer<typeof TestStatus>;

export const TestCase = z.object({
  /**
   * Stable across runs (no durations, no line numbers), so a run can be compared with the baseline:
   * `file > suite > title` (vitest, jest, mocha, node:test), the pytest node id
   * `file::Class::name[param]`, `package > TestName/sub` (go), `target > module::path::name` (cargo).
   */
  id: z.string().min(1),
  /** The repository-relative file that declares it, when the report says. */
  file: z.string().nullable(),
  /** The declaration to look for in the source: the test function's name (pytest without the
   * parameters, go's top-level Test function, cargo's fn), or the test's own title (JS). */
  name: z.string(),
  status: TestStatus,
  durationMs: z.number().min(0).nullable(),
  /** The failure's message and the test's own stack, ANSI-free and capped; failed and errored only. */
  message: z.string().nullable().default(null),
  /**
   * `file` for a runner that names no test, only a file and its counts (uvu's `lite.js (5 / 5)`):
   * the entry stands for every test in that file, its id and `file` are the file's path, and
   * `counts` says how many of them passed, failed and were skipped. Absent: one test case.
   */
  scope: z.enum(['case', 'file']).optional(),
  counts: z
    .object({
      passed: z.number().int().min(0),
      failed: z.number().int().min(0),
      skipped: z.number().int().min(0),
    })
    .optional(),
});
export type TestCase = z.infer<typeof TestCase>;

/** A file that did not load, so none of its tests ran: a collection error, a suite failed to run. */
export const LoadError = z.object({ file: z.string(), message: z.string() });
export type LoadError = z.infer<typeof LoadError>;

export const TestTotals = z.object({
  total: z.number().int().min(0),
  passed: z.number().int().min(0),
  failed: z.number().int().min(0),
  errored: z.number().int().min(0),
  skipped: z.number().int().min(0),
});
export type TestTotals = z.infer<typeof TestTotals>;

/** Why a run did not pass. `fail` reasons are evidence of a break; `unknown` ones are what booty could not see. */
export const VerdictReason = z.object({
  code: z.enum([
    'not-run',
    'timed-out',
    'no-test-passed',
    'changed-test-failed',
    'changed-test-unseen',
    'baseline-test-failed',
    'baseline-test-missing',
    'exit-disagrees',
    'install-failed',
  ]),
  level: z.enum(['fail', 'unknown']),
  message: z.string(),
  tests: z.array(z.string()).default([]),
});
export type VerdictReason = z.infer<typeof VerdictReason>;

export const ReportSource = z.enum([
  'junit',
  'jest-json',
  'mocha-json',
  'go-json',
  'tap',
  'libtest',
  'uvu',
  'rspec-json',
  'trx',
  'text',
  'none',
]);
export type ReportSource = z.infer<typeof ReportSource>;

/**
 * Why an attempt failed, decided by the effect that saw it (src/refine/failure-class.ts) and kept
 * in its event. Absent in logs from before the classes: such an attempt refines as it did then.
 */
export const FailureClass = z.enum([
  'missing-module',
  'import',
  'assertion',
  'type-or-value',
  'syntax-or-compile',
  'timeout',
  'policy',
  'environment',
  'invalid-model-output',
  /** The run exited 0 and named no failure, but booty could not read enough of it to call it a pass. */
  'unreadable',
  'unknown',
]);
export type FailureClass = z.infer<typeof FailureClass>;

/**
 * One quality command (lint, typecheck) after the tests: on the baseline, and after a change whose
 * tests passed. Compared command by command with the baseline's run (src/sandbox/quality-compare.ts).
 */
export const QualityRun = z.object({
  command: z.string(),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number().min(0),
  /** What it reported at a file and line, as `file: message`: line numbers dropped, as a change shifts them. */
  findings: z.array(z.string()),
  /** Its findings may not be all of them: the output was cut to its head and tail, or the findings cap was hit. */
  incomplete: z.boolean().optional(),
  /** The end of what it printed: ANSI-free, secrets scrubbed, the workspace shown as `.`. */
  outputTail: z.string(),
  /** On the baseline: whether it passed there. After a change: against the baseline's run. */
  verdict: z.enum(['pass', 'fail', 'unknown']),
  /** Why it is not a plain pass, in words (null when it passed). */
  reason: z.string().nullable(),
  /** Findings the change brought (after a change), or every finding when it passed on the baseline. */
  newFindings: z.array(z.string()),
});
export type QualityRun = z.infer<typeof QualityRun>;

export const TestRun = z.object({
  at,
  command: z.string(),
  /** The command ran at all: not 126 or 127, and no "command not found". */
  ran: z.boolean(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number().min(0),
  /** The end of what the command printed: ANSI-free, secrets scrubbed, the workspace shown as `.`. */
  outputTail: z.string(),
  /** Where the cases were read from: a machine-readable report, or the text as a fallback. */
  source: ReportSource,
  cases: z.array(TestCase),
  loadErrors: z.array(LoadError),
  totals: TestTotals,
  /**
   * On the baseline: why this run cannot gate a change (the job then ends before any model call):
   * the command cannot run, it timed out, or it ran and booty read no test from it.
   */
  broken: z
    .object({
      reason: z.enum(['test-command-broken', 'test-command-timeout', 'tests-unreadable']),
      message: z.string(),
    })
    .nullable(),
  /** pass only on positive evidence (see test-verdict.ts); unknown never promotes. */
  verdict: z.enum(['pass', 'fail', 'unknown']),
  /**
   * `exit-code`: the pass rests on the exit status alone, as booty.yml's `gate: exit-code` allows,
   * where booty could not read enough of the results (its reasons say what). Absent otherwise.
   */
  evidence: z.literal('exit-code').optional(),
  reasons: z.array(VerdictReason),
  /** verdict === 'pass', kept for the machine's guards and older readers. */
  passed: z.boolean(),
  /** Ids that failed or errored. */
  failingTests: z.array(z.string()),
  /** Tests that passed on the baseline and fail or are gone now, and changed tests that fail. */
  newFailures: z.array(z.string()),
  baselineFailures: z.array(z.string()),
  /** Tests the change added or modified (by id), and declarations it changed that no run showed. */
  changedTests: z.array(z.string()),
  addedTestsFailing: z.array(z.string()),
  /** How the command was contained: bubblewrap, namespaces through unshare, or nothing. */
  sandbox: z.enum(['bwrap', 'unshare', 'none']),
  /** On a run after a change that did not pass: why (absent in older logs, and on baselines). */
  failureClass: FailureClass.optional(),
  /**
   * The quality commands (booty.yml `quality.commands`), when the tests passed: a new failure among
   * them makes the run not pass. Absent with none configured, when the tests failed, and in old logs.
   */
  quality: z.array(QualityRun).optional(),
});
export type TestRun = z.infer<typeof TestRun>;

export const Analysis = z.object({
  summary: z.string(),
  changeKind: z.enum(['feat', 'fix']),
  filesToRead: z.array(z.string()),
  filesToChange: z.array(z.string()),
  testsToAdd: z.array(z.string()),
  acceptanceCriteria: z.array(z.string()),
  risks: z.array(z.string()),
});
export type Analysis = z.infer<typeof Analysis>;

export const Analyzed = z.object({ at, analysis: Analysis, usage: Usage });
export type Analyzed = z.infer<typeof Analyzed>;

/** A whole file's new content, or null to delete it. */
export const FileChange = z.object({ path: z.string().min(1), content: z.string().nullable() });
export type FileChange = z.infer<typeof FileChange>;

export const Generated = z.object({
  at,
  changes: z.array(FileChange),
  explanation: z.string(),
  usage: Usage,
  /**
   * The class a quick model call gave the previous attempt's `unknown` failure, which the request
   * used for its guidance; its tokens are in `usage` (absent otherwise, and in older logs).
   */
  classifiedAs: FailureClass.optional(),
  /**
   * The earlier attempt whose tested code this answer would have recreated, after the one repair
   * turn: booty applied nothing and ran no test (absent otherwise, and in older logs).
   */
  repeated: z.number().int().positive().optional(),
});
export type Generated = z.infer<typeof Generated>;

export const Rejection = z.object({ path: z.string(), rule: z.string(), reason: z.string() });
export type Rejection = z.infer<typeof Rejection>;

export const Applied = z.object({
  at,
  applied: z.array(FileChange),
  rejected: z.array(Rejection),
  /** Test files among the applied changes: they must pass for the job to pass. */
  addedTests: z.array(z.string()),
  /** When nothing could be applied: why (absent in older logs). */
  failureClass: FailureClass.optional(),
});
export type Applied = z.infer<typeof Applied>;

/** What a change does to one manifest or lockfile, for the PR body. */
export const DependencyChange = z.object({
  file: z.string(),
  /** `name@version` or a manifest line, each with its sign. */
  lines: z.array(z.string()),
});
export type DependencyChange = z.infer<typeof DependencyChange>;

export const PullRequest = z.object({
  at,
  number: z.number().int().positive(),
  url: z.string(),
  nodeId: z.string(),
  draft: z.boolean(),
  headSha: z.string(),
  created: z.boolean(),
  /**
   * On openPr's result: what the change did to dependencies, as the workspace read it when the PR
   * opened, so the PR body is written again from the log alone. Absent in older logs (the body then
   * carries its own section over) and on a pull request a person opened.
   */
  dependencies: z.array(DependencyChange).optional(),
});
export type PullRequest = z.infer<typeof PullRequest>;

/** A check, status or Actions job that failed on a commit. */
export const CiFailure = z.object({
  name: z.string(),
  kind: z.enum(['check', 'status']),
  url: z.string().nullable(),
  /** The check's own summary, or the Actions log cut to the failing step (capped, scrubbed). */
  detail: z.string(),
});
export type CiFailure = z.infer<typeof CiFailure>;

/** Every check and status on a commit, summed up: pass only when all finished and none failed. */
export const CiRead = z.object({
  at,
  sha: z.string().min(7),
  state: z.enum(['none', 'pending', 'passed', 'failed']),
  /** How many checks and statuses the commit has. */
  total: z.number().int().min(0),
  failing: z.array(CiFailure),
  /** Failed GitHub Actions runs that can be re-run. */
  rerunnable: z.array(z.number().int()),
});
export type CiRead = z.infer<typeof CiRead>;

/** The pull request marked ready, or (with CI pending or red) left draft; `ci` is what was read first. */
export const Promoted = z.object({
  at,
  draft: z.boolean(),
  ci: CiRead.omit({ at: true }).nullable().optional(),
});
export type Promoted = z.infer<typeof Promoted>;

export const CiRerun = z.object({ at, sha: z.string(), runs: z.array(z.number().int()) });
export type CiRerun = z.infer<typeof CiRerun>;

export const Demoted = z.object({ at, draft: z.literal(true) });
export type Demoted = z.infer<typeof Demoted>;

/**
 * A follow-up round's start: the branch head it builds on (humans' commits included). On a pull
 * request someone else opened, also where its branch left the base branch (its whole diff starts
 * there; absent otherwise, and in older logs).
 */
export const Synced = z.object({ at, headSha: z.string().min(7), mergeBase: z.string().min(7).optional() });
export type Synced = z.infer<typeof Synced>;

/** A follow-up round's end: the commit pushed (null when nothing was), and the replies posted. */
export const Answered = z.object({
  at,
  commit: z.string().nullable(),
  headSha: z.string().min(7),
  replies: z.number().int().min(0),
});
export type Answered = z.infer<typeof Answered>;

/** A writer's suggestion block that a round applied, by its review comment and the lines it replaced. */
export const SuggestionApplied = z.object({
  commentId: z.number().int(),
  author: z.string(),
  path: z.string().min(1),
  startLine: z.number().int().positive(),
  line: z.number().int().positive(),
});
export type SuggestionApplied = z.infer<typeof SuggestionApplied>;

/** A suggestion block left as it was, and why (outdated, stale lines, overlapping another...). */
export const SuggestionSkipped = z.object({
  commentId: z.number().int(),
  author: z.string(),
  path: z.string().nullable(),
  reason: z.string(),
});
export type SuggestionSkipped = z.infer<typeof SuggestionSkipped>;

/**
 * `@booty apply suggestions` (machine 9): the pull request's suggestion blocks, read at the head the
 * round synced to and applied as written, with no model call. `changes` are the files as they
 * become; the round's answer pushes them as one commit.
 */
export const SuggestionsApplied = z.object({
  at,
  changes: z.array(FileChange),
  applied: z.array(SuggestionApplied),
  skipped: z.array(SuggestionSkipped),
});
export type SuggestionsApplied = z.infer<typeof SuggestionsApplied>;

/** A place in the repository an answer rests on: a file, and a line or lines of it. */
export const CodeReference = z.object({
  path: z.string().min(1),
  line: z.number().int().positive().nullable(),
  endLine: z.number().int().positive().nullable(),
});
export type CodeReference = z.infer<typeof CodeReference>;

/**
 * The questions of a round, answered in one reply each, and nothing committed: the commit read,
 * the answer as posted, the lines it rests on. `answered` is false when booty could not ask the
 * model (the job's budget): the reply says so instead.
 */
export const QuestionAnswered = z.object({
  at,
  commit: z.string().min(7),
  answered: z.boolean(),
  answer: z.string(),
  references: z.array(CodeReference),
  usage: Usage,
  replies: z.number().int().min(0),
});
export type QuestionAnswered = z.infer<typeof QuestionAnswered>;

/** The plan, posted on the issue for a writer's approval. */
export const PlanPosted = z.object({ at, commentId: z.number().int(), url: z.string() });
export type PlanPosted = z.infer<typeof PlanPosted>;

/**
 * Who a job that gave up asked for help: reviewers on its draft PR, or assignees of its issue when
 * there is none (teams cannot be assigned: they are named in the comment). `refused` are those
 * GitHub would not take (not a collaborator, no such team); the job goes on without them.
 */
export const Escalated = z.object({
  at,
  on: z.enum(['pr', 'issue']),
  number: z.number().int().positive(),
  users: z.array(z.string()),
  teams: z.array(z.string()),
  refused: z.array(z.object({ name: z.string(), reason: z.string() })),
});
export type Escalated = z.infer<typeof Escalated>;

/** The output schema of every effect, by its `src` name in the machine. */
export const effectOutputs = {
  prepare: Prepared,
  runBaseline: TestRun,
  analyze: Analyzed,
  generate: Generated,
  refine: Generated,
  applyChanges: Applied,
  runTests: TestRun,
  openPr: PullRequest,
  promotePr: Promoted,
  readCi: CiRead,
  rerunCi: CiRerun,
  demotePr: Demoted,
  syncBranch: Synced,
  answerRound: Answered,
  postPlan: PlanPosted,
  escalate: Escalated,
  answerQuestion: QuestionAnswered,
  applySuggestions: SuggestionsApplied,
} as const;
export type EffectName = keyof typeof effectOutputs;
export type EffectOutput<K extends EffectName> = z.infer<(typeof effectOutputs)[K]>;

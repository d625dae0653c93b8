import { z } from 'zod';

// What each effect resolves with. Effect results enter the log, so they are validated here, at the
// boundary, before the machine sees them. Every result carries `at`, the time it finished.

const at = z.number().int();

export const EffectFailure = z.object({
  src: z.string(),
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  at,
});
export type EffectFailure = z.infer<typeof EffectFailure>;

export const Usage = z.object({
  model: z.string(),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  cacheReadTokens: z.number().int().min(0),
  cacheWriteTokens: z.number().int().min(0),
  costUsd: z.number().min(0),
});
export type Usage = z.infer<typeof Usage>;

export const RepoConfig = z.object({
  /** Where it came from: a config file, detection from the repository's files, or booty's defaults. */
  source: z.enum(['file', 'detected', 'default']),
  path: z.string().nullable(),
  test: z.object({ command: z.string().min(1) }),
  install: z.object({ command: z.string().min(1) }).nullable(),
  timeoutSeconds: z.number().int().positive(),
  maxAttempts: z.number().int().min(1).max(10),
  protectedPaths: z.array(z.string()),
  sandbox: z.enum(['auto', 'required', 'off']),
});
export type RepoConfig = z.infer<typeof RepoConfig>;

export const IssueComment = z.object({ author: z.string(), body: z.string() });
export type IssueComment = z.infer<typeof IssueComment>;

export const Prepared = z.object({
  at,
  baseSha: z.string().min(7),
  defaultBranch: z.string().min(1),
  branch: z.string().min(1),
  config: RepoConfig,
  comments: z.array(IssueComment),
});
export type Prepared = z.infer<typeof Prepared>;

export const TestRun = z.object({
  at,
  command: z.string(),
  /** No new failures against the baseline, and every test the job added passes. */
  passed: z.boolean(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number().min(0),
  outputTail: z.string(),
  failingTests: z.array(z.string()),
  newFailures: z.array(z.string()),
  baselineFailures: z.array(z.string()),
  addedTestsFailing: z.array(z.string()),
  sandbox: z.enum(['bwrap', 'none']),
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
});
export type Applied = z.infer<typeof Applied>;

export const PullRequest = z.object({
  at,
  number: z.number().int().positive(),
  url: z.string(),
  nodeId: z.string(),
  draft: z.boolean(),
  headSha: z.string(),
  created: z.boolean(),
});
export type PullRequest = z.infer<typeof PullRequest>;

export const Promoted = z.object({ at, draft: z.boolean() });
export type Promoted = z.infer<typeof Promoted>;

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
} as const;
export type EffectName = keyof typeof effectOutputs;
export type EffectOutput<K extends EffectName> = z.infer<(typeof effectOutputs)[K]>;

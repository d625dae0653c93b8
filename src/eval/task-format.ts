import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { BootyError } from '../errors.js';

// What `booty eval` measures: one task a line of a JSONL file. A line is booty's own shape (a
// repository path or git URL, the issue's title and body, hidden tests, an optional gold patch) or
// SWE-bench's (instance_id, repo, base_commit, problem_statement, test_patch, patch, FAIL_TO_PASS,
// PASS_TO_PASS), read as SWE-bench writes it. Both become one EvalTask; a bad line is an error
// naming the line and the field.

const Sha = z.string().regex(/^[0-9a-f]{7,40}$/, 'must be a commit id (hex)');
const TaskId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be letters, digits, ".", "_" or "-"');

/** SWE-bench keeps its test lists as JSON text in the JSONL; booty's lines have arrays. */
const TestIds = z.union([
  z.array(z.string().min(1)),
  z.string().transform((text, ctx) => {
    try {
      return z.array(z.string().min(1)).parse(JSON.parse(text));
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a list of test ids, or that list as JSON text' });
      return z.NEVER;
    }
  }),
]);

const HiddenFile = z.object({ path: z.string().min(1), content: z.string() }).strict();

export const NativeTaskLine = z
  .object({
    id: TaskId,
    /** A directory (a git repository, or plain files), a git URL, or a path to a git repository. */
    repo: z.string().min(1),
    /** The commit to start from; for a directory of plain files, the upstream commit they came from. */
    base_commit: Sha.optional(),
    title: z.string().min(1),
    body: z.string().default(''),
    hidden_tests: z
      .object({
        /** A unified diff applied on the PR's head (SWE-bench's test_patch), inline or as a file. */
        patch: z.string().optional(),
        patch_file: z.string().optional(),
        files: z.array(HiddenFile).default([]),
        /** The command that runs them; else the task's test command, else the detected one. */
        command: z.string().min(1).optional(),
        FAIL_TO_PASS: TestIds.pipe(z.array(z.string()).min(1, 'must name at least one test')),
        PASS_TO_PASS: TestIds.default([]),
      })
      .strict(),
    /** The install command; null: none. Absent: booty detects it. */
    install: z.string().min(1).nullable().optional(),
    test: z.string().min(1).optional(),
    gold_patch: z.string().optional(),
    gold_patch_file: z.string().optional(),
    /** Where a snapshot came from: for people, and for the report. */
    source: z
      .object({
        repo: z.string(),
        fix: z.string(),
        license: z.string(),
        issue: z.string().optional(),
      })
      .strict()
      .optional(),
    /** What the task shows, e.g. `multi-file`, `wrong-fix-passes-visible`. */
    tags: z.array(z.string()).default([]),
  })
  .strict();

export const SweBenchLine = z.object({
  instance_id: TaskId,
  /** `owner/name` on GitHub. */
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name'),
  base_commit: Sha,
  problem_statement: z.string().min(1),
  test_patch: z.string().min(1),
  patch: z.string().optional(),
  FAIL_TO_PASS: TestIds.pipe(z.array(z.string()).min(1, 'must name at least one test')),
  PASS_TO_PASS: TestIds.default([]),
  // booty's own additions, for a harness without SWE-bench's per-repository commands.
  install: z.string().min(1).nullable().optional(),
  test: z.string().min(1).optional(),
});

export interface EvalTask {
  id: string;
  /** A local directory or a git URL. */
  repo: string;
  /** The commit to check out; null for a directory of plain files. */
  baseCommit: string | null;
  title: string;
  body: string;
  hidden: {
    patch: string;
    files: { path: string; content: string }[];
    command: string | null;
    failToPass: string[];
    passToPass: string[];
  };
  /** undefined: detected; null: none. */
  install: string | null | undefined;
  test: string | null;
  goldPatch: string | null;
  source: { repo: string; fix: string; license: string; issue?: string } | null;
  tags: string[];
  /** The file and line the task came from, for messages. */
  origin: string;
}

export interface ReadOptions {
  /** Where SWE-bench's `owner/name` repositories are cloned: DIR/owner__name or DIR/owner/name. */
  repos?: string;
}

/** Every task of a JSONL file; an invalid line is BOOTY_E_EVAL_TASK_INVALID naming it. */
export function readTaskFile(file: string, options: ReadOptions = {}): EvalTask[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new BootyError('BOOTY_E_EVAL_TASKS_UNREADABLE', {
      file,
      reason: (err as NodeJS.ErrnoException).code ?? String(err),
    });
  }
  const tasks: EvalTask[] = [];
  const seen = new Map<string, number>();
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    const task = parseTaskLine(raw, { file, line, ...options });
    const earlier = seen.get(task.id);
    if (earlier !== undefined)
      throw invalid(file, line, 'id', `repeats the id "${task.id}" of line ${earlier}`);
    seen.set(task.id, line);
    tasks.push(task);
  });
  if (tasks.length === 0)
    throw new BootyError('BOOTY_E_EVAL_TASKS_UNREADABLE', { file, reason: 'it holds no task' });
  return tasks;
}

const invalid = (file: string, line: number, field: string, problem: string) =>
  new BootyError('BOOTY_E_EVAL_TASK_INVALID', { file, line, field, problem });

export function parseTaskLine(raw: string, at: { file: string; line: number } & ReadOptions): EvalTask {
  const { file, line } = at;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (err) {
    throw invalid(file, line, 'the line', `is not JSON: ${(err as Error).message}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw invalid(file, line, 'the line', 'must be a JSON object');
  const dir = path.dirname(path.resolve(file));
  const origin = `${file}:${line}`;
  const fail = (error: z.ZodError): never => {
    let issue = error.issues[0]!;
    // A union (a list, or the list as JSON text) says only "Invalid input": its own words are inside.
    const path = issue.path;
    while (issue.code === 'invalid_union' && issue.errors.flat().length)
      issue = issue.errors.flat().find((i) => i.code === 'custom') ?? issue.errors.flat()[0]!;
    const field = [...path, ...(issue.path ?? [])].map(String).join('.') || 'the line';
    const extra = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
    throw invalid(file, line, field, `${issue.message}${extra}`);
  };

  if ('instance_id' in data) {
    const parsed = SweBenchLine.safeParse(data);
    if (!parsed.success) return fail(parsed.error);
    const t = parsed.data;
    const [title, ...rest] = t.problem_statement.trim().split('\n');
    return {
      id: t.instance_id,
      repo: sweBenchRepo(t.repo, dir, at.repos),
      baseCommit: t.base_commit,
      title: title!.trim().slice(0, 200),
      body: rest.join('\n').trim(),
      hidden: {
        patch: t.test_patch,
        files: [],
        command: null,
        failToPass: t.FAIL_TO_PASS,
        passToPass: t.PASS_TO_PASS,
      },
      install: t.install,
      test: t.test ?? null,
      goldPatch: t.patch ?? null,
      source: null,
      tags: [],
      origin,
    };
  }

  const parsed = NativeTaskLine.safeParse(data);
  if (!parsed.success) return fail(parsed.error);
  const t = parsed.data;
  const readBeside = (field: string, rel: string) => {
    try {
      return fs.readFileSync(path.resolve(dir, rel), 'utf8');
    } catch (err) {
      throw invalid(
        file,
        line,
        field,
        `names ${rel}, which cannot be read (${(err as NodeJS.ErrnoException).code})`,
      );
    }
  };
  if (t.hidden_tests.patch !== undefined && t.hidden_tests.patch_file !== undefined)
    throw invalid(file, line, 'hidden_tests', 'gives both patch and patch_file; give one');
  if (t.gold_patch !== undefined && t.gold_patch_file !== undefined)
    throw invalid(file, line, 'gold_patch', 'is given with gold_patch_file; give one');
  const patch =
    t.hidden_tests.patch ??
    (t.hidden_tests.patch_file ? readBeside('hidden_tests.patch_file', t.hidden_tests.patch_file) : '');
  if (!patch && t.hidden_tests.files.length === 0)
    throw invalid(file, line, 'hidden_tests', 'adds no test: give a patch, a patch_file or files');
  const repo = isUrl(t.repo) ? t.repo : path.resolve(dir, t.repo);
  return {
    id: t.id,
    repo,
    baseCommit: t.base_commit ?? null,
    title: t.title,
    body: t.body,
    hidden: {
      patch,
      files: t.hidden_tests.files,
      command: t.hidden_tests.command ?? null,
      failToPass: t.hidden_tests.FAIL_TO_PASS,
      passToPass: t.hidden_tests.PASS_TO_PASS,
    },
    install: t.install,
    test: t.test ?? null,
    goldPatch: t.gold_patch ?? (t.gold_patch_file ? readBeside('gold_patch_file', t.gold_patch_file) : null),
    source: t.source ?? null,
    tags: t.tags,
    origin,
  };
}

const isUrl = (repo: string) => /^(https?|ssh|git|file):\/\//.test(repo) || /^[\w.-]+@[\w.-]+:/.test(repo);

/** SWE-bench's `owner/name`: a local clone when there is one, else GitHub. */
function sweBenchRepo(name: string, dir: string, repos: string | undefined): string {
  const [owner, repo] = name.split('/') as [string, string];
  const candidates = [
    ...(repos ? [path.join(repos, `${owner}__${repo}`), path.join(repos, owner, repo)] : []),
    path.join(dir, 'repos', `${owner}__${repo}`),
  ];
  return candidates.find((c) => fs.existsSync(c)) ?? `https://github.com/${name}.git`;
}

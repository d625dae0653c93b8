import type { FileChange } from '../events/effect-results.js';
import type { AttemptRecord, JobContext } from '../machines/job-context.js';
import { protectedPath } from '../workspace/path-policy.js';
import type { ChangesAnswer } from './answer-schemas.js';
import { repeatProblem } from './prompts.js';
import { repeatedAttempt } from './repeated-patch.js';
import type { RepoReader } from './repo-reader.js';
import { type Resolved, resolveAnswer } from './resolve-answer.js';
import type { Review } from './structured-call.js';
import { testViolations } from './test-guard.js';

// What a changes answer must satisfy beyond its schema. The rules (no test removed or skipped)
// fail the step if the repaired answer still breaks them; the review (every edit applies, the code
// is not what an earlier attempt already tested) spends the attempt instead.

export interface AnswerRulesInput {
  job: JobContext;
  reader: RepoReader;
  /** The attempts of the work under way, on the reader's base. */
  attempts: AttemptRecord[];
  /** Files at the base commit, already read (the attempts' and the job's paths). */
  base: Map<string, string | null>;
}

export function answerRules({ job, reader, attempts, base }: AnswerRulesInput) {
  const latest = new Map(job.changes.map((c) => [c.path, c.content]));
  /** Each file as the job has it now: its latest change, else the base. */
  const current = async (paths: string[]) => {
    const found = await reader.readFiles(paths.filter((p) => !latest.has(p)));
    for (const p of paths) if (latest.has(p)) found.set(p, latest.get(p)!);
    return found;
  };
  const isProtected = (path: string) => protectedPath(path, job.config?.protectedPaths ?? []) !== null;
  // Checked twice per answer (rules, then review): resolved once.
  const resolved = new WeakMap<ChangesAnswer, Promise<Resolved>>();
  const resolve = (answer: ChangesAnswer) => {
    if (!resolved.has(answer)) resolved.set(answer, resolveAnswer(answer, current, isProtected));
    return resolved.get(answer)!;
  };

  const check = async (answer: ChangesAnswer): Promise<string[]> => {
    const { changes } = await resolve(answer);
    return testViolations({
      changes: changes.filter((c): c is { path: string; content: string } => c.content !== null),
      deletePaths: answer.deletePaths,
      addedTests: job.addedTests,
      previous: async (path) => (await current([path])).get(path) ?? null,
    });
  };

  /** The attempt the last reviewed answer would repeat: what an answer left unapplied records. */
  let lastRepeat: number | null = null;
  const review = async (answer: ChangesAnswer): Promise<Review> => {
    lastRepeat = null;
    const { changes, problems, current: shown } = await resolve(answer);
    if (problems.length) return { problems, context: shown };
    // Nothing tested yet (a first generation): nothing to repeat, and no file to read for it.
    if (!attempts.some((a) => a.test !== null)) return { problems: [] };
    const more = await reader.readFiles(changes.map((c) => c.path).filter((p) => !base.has(p)));
    const repeats = repeatedAttempt({
      attempts,
      current: job.changes,
      proposal: changes,
      base: new Map([...base, ...more]),
    });
    lastRepeat = repeats;
    return { problems: repeats === null ? [] : [repeatProblem(repeats)] };
  };

  /** The answer as whole files, once it passed. */
  const changesOf = async (answer: ChangesAnswer): Promise<FileChange[]> => (await resolve(answer)).changes;

  return { check, review, changesOf, repeated: () => lastRepeat };
}

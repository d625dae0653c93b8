import { createTwoFilesPatch } from 'diff';
import type { FileChange } from '../events/effect-results.js';
import type { AttemptRecord, JobContext } from '../machines/job-context.js';

// Each earlier attempt's patch as a unified diff against the code as it stood before that attempt
// (the base commit plus what the attempts before it applied), so the model sees what it tried. A
// pure function of the log and the base commit: the same job gives the same bytes, which the prompt
// cache reads again on every later attempt.

const PATCH_CHARS = 12_000;

/** The attempts of the work under way: a follow-up round starts on a new base, so earlier rounds' are left out. */
export function attemptsInScope(job: Pick<JobContext, 'attempts' | 'round'>): AttemptRecord[] {
  const first = job.round?.firstAttempt ?? 1;
  return job.attempts.filter((a) => a.n >= first);
}

/** What an attempt wrote: its proposal, less what the path policy rejected. */
export const appliedChanges = (a: AttemptRecord): FileChange[] =>
  a.proposed.filter((c) => a.files.includes(c.path));

/** Every path the attempts touched, to read at the base commit. */
export const touchedPaths = (attempts: AttemptRecord[]) => [
  ...new Set(attempts.flatMap((a) => a.proposed.map((c) => c.path))),
];

export interface AttemptPatch {
  /** Empty when the attempt applied nothing. */
  text: string;
  /** Cut at the size cap: the patch does not show every line it changed. */
  cut: boolean;
}

/** One patch per attempt, in order. */
export function attemptPatches(attempts: AttemptRecord[], base: Map<string, string | null>): AttemptPatch[] {
  const tree = new Map(base);
  return attempts.map((a) => {
    const parts: string[] = [];
    for (const change of appliedChanges(a)) {
      const before = tree.get(change.path) ?? null;
      parts.push(filePatch(change.path, before, change.content));
      tree.set(change.path, change.content);
    }
    const text = parts.join('');
    return text.length > PATCH_CHARS
      ? {
          text: `${text.slice(0, PATCH_CHARS)}\n[… ${text.length - PATCH_CHARS} more characters cut]\n`,
          cut: true,
        }
      : { text, cut: false };
  });
}

function filePatch(path: string, before: string | null, after: string | null): string {
  if (before === after) return `(${path}: written with the content it already had)\n`;
  const patch = createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${path}`,
    after === null ? '/dev/null' : `b/${path}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: 3 },
  );
  // The library's "Index"/"====" banner says nothing a reader of git's diffs expects.
  return patch.slice(patch.indexOf('--- '));
}

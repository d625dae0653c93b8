import type { JobContext } from '../machines/job-context.js';
import { code } from './markdown-format.js';
import { brokenBaseline, qualityHold } from './test-evidence.js';

// A step that failed, told as a maintainer would tell it: "Analyzing the issue failed", not the
// machine's name for the step, with the error's code kept for a search.

/** A step of the machine as a maintainer would name it. */
const stepWords: Record<string, string> = {
  prepare: 'Preparing the workspace',
  runBaseline: 'Running the tests before the change',
  analyze: 'Analyzing the issue',
  generate: 'Generating the change',
  refine: 'Refining the change',
  applyChanges: 'Applying the change',
  runTests: 'Running the tests',
  openPr: 'Opening the pull request',
  promotePr: 'Marking the pull request ready for review',
  postPlan: 'Posting the plan',
  escalate: 'Asking for help',
};
export const inWords = (step: string) => stepWords[step] ?? `The step ${code(step)}`;

/** An effect error's own words, without the "effect analyze failed:" the step in words already says. */
export const errorWords = (step: string, message: string) =>
  message.startsWith(`effect ${step} failed`)
    ? message.replace(/^effect \S+ failed(?: for now)?: /, '')
    : message;

/** The outcome in words: a failed step is named as a person would, with its error code to search. */
export function outcomeMessage(ctx: JobContext): string {
  const { outcome, error } = ctx;
  const held = outcome && qualityHold(ctx);
  if (held) return `${held} The work is up as a draft pull request.`;
  const prefix = error ? `${error.step} failed: ` : '';
  if (!outcome || !error || outcome.reason !== 'error' || !outcome.message.startsWith(prefix)) {
    return outcome?.message ?? '';
  }
  return `${inWords(error.step)} failed (${code(error.code)}): ${errorWords(error.step, outcome.message.slice(prefix.length))}`;
}

/** A baseline that cannot run, or a step error the outcome does not already tell; the tests' failures are in the attempts. */
export function failureSection(ctx: JobContext): string | null {
  const told = ctx.outcome?.reason === 'error' || ctx.outcome?.reason === 'promotion-failed';
  let why: string | null = null;
  if (ctx.baseline?.broken) why = brokenBaseline(ctx.baseline);
  else if (ctx.error && !told) {
    why = `${inWords(ctx.error.step)} failed (${code(ctx.error.code)}): ${errorWords(ctx.error.step, ctx.error.message)}`;
  }
  return why ? `#### What went wrong\n\n${why}` : null;
}

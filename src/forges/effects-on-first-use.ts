import { onFirstUse } from '../on-first-use.js';
import type { ForgeEffects } from './forge.js';

// A forge's effects (opening and promoting PRs, CI, replies) are code no idle serve runs: they load
// with the first job's first effect. A load that failed is tried again on the next call.

const NAMES = [
  'openDraftPr',
  'promotePr',
  'readCi',
  'rerunCi',
  'demotePr',
  'postPlan',
  'escalate',
  'answerRound',
  'suggestions',
  'answerQuestions',
  'listIssueComments',
  'getIssue',
] as const satisfies readonly (keyof ForgeEffects)[];

// A new effect on the port is a type error here until it is listed.
const listed: Record<Exclude<keyof ForgeEffects, (typeof NAMES)[number]>, never> = {};
void listed;

type Call = (...args: unknown[]) => Promise<unknown>;

/** The effects `load` makes, loaded on the first call of any of them. */
export function effectsOnFirstUse(load: () => Promise<ForgeEffects>): ForgeEffects {
  const effects = onFirstUse(load);
  const calls = NAMES.map((name) => [
    name,
    async (...args: unknown[]) => ((await effects())[name] as Call)(...args),
  ]);
  return Object.fromEntries(calls) as unknown as ForgeEffects;
}

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Responder, Turn } from '../simulators/anthropic-simulator.js';

// What the scripted model says in each demo scenario. The turns are written for the sample
// repository's issue (examples/): the demo shows booty's machinery, not a model. The answer for a
// change is chosen by the attempt the request is for, read from the history it carries, so a
// resumed demo gets the same answer it would have got uninterrupted.

export const scenarios = ['pass', 'refine', 'exhausted'] as const;
export type Scenario = (typeof scenarios)[number];

/** Which scripted change each attempt gets: the fixed one, or the one with a bug. */
const plans: Record<Scenario, ('fixed' | 'buggy')[]> = {
  pass: ['fixed'],
  refine: ['buggy', 'fixed'],
  exhausted: ['buggy', 'buggy', 'buggy'],
};

/** The examples/ folder of this package, the same from src/ (tsx) and dist/. */
export const examplesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples');

export function sampleIssue(): { title: string; body: string } {
  const text = fs.readFileSync(path.join(examplesDir, 'sample-issue.md'), 'utf8');
  const [title, ...body] = text.split('\n');
  return { title: title!.trim(), body: body.join('\n').trim() };
}

/**
 * The model's complete files for an attempt: the sample's src/duration.js with parseDuration added,
 * and its tests. The buggy variant makes the classic first mistake: it tries "m" before "ms", so
 * "250ms" reads as 250 minutes and a stray "s", and one of its own tests fails.
 */
function changeAnswer(variant: 'fixed' | 'buggy') {
  const read = (...p: string[]) => fs.readFileSync(path.join(examplesDir, ...p), 'utf8');
  const explanations = JSON.parse(read('demo-turns', 'explanations.json')) as Record<typeof variant, string>;
  let parse = read('demo-turns', 'parse-duration.js');
  if (variant === 'buggy') {
    parse = parse
      .replace(/^\/\/ "ms" comes first.*$/m, '// Each part is a number and a unit.')
      .replace('(ms|d|h|m|s)', '(d|h|m|s|ms)');
  }
  return {
    explanation: explanations[variant],
    changes: [
      { path: 'src/duration.js', content: `${read('sample-repo', 'src', 'duration.js')}\n${parse}` },
      { path: 'test/parse-duration.test.js', content: read('demo-turns', 'parse-duration.test.js') },
    ],
    deletePaths: [],
  };
}

export function demoResponder(scenario: Scenario): Responder {
  const analysis = JSON.parse(fs.readFileSync(path.join(examplesDir, 'demo-turns', 'analysis.json'), 'utf8'));
  const plan = plans[scenario];
  return (request): Turn | undefined => {
    if (request.toolName === 'submit_analysis') return { answer: analysis };
    if (request.toolName !== 'submit_changes') return undefined;
    // A refinement request lists every earlier attempt as "Attempt n: …".
    const attempt = new Set(request.raw.match(/Attempt \d+:/g) ?? []).size + 1;
    return { answer: changeAnswer(plan[Math.min(attempt, plan.length) - 1]!) };
  };
}

/** The end each scenario must reach for `booty demo` to exit 0. */
export function expectedEnd(scenario: Scenario, maxAttempts: number) {
  return {
    pass: { state: 'promoted', attempts: 1 },
    refine: { state: 'promoted', attempts: 2 },
    // Work that never passes is not a failed job: it waits with its draft PR.
    exhausted: { state: 'prOpened', attempts: maxAttempts },
  }[scenario];
}

// edit-answer: output tokens of the model's answer to a refine request for a 3,000-line file that
// needs a 5-line fix, answered as one search/replace edit, against the same fix answered as the
// whole file (the baseline, as booty asked for before edits). Both answers go through the real
// refine effect over HTTP to the Anthropic simulator, which counts output tokens (four characters
// a token), and both must resolve to the same file.
import fs from 'node:fs';
import { effectInput } from '../src/machines/job-context.js';
import {
  analysis,
  attempt,
  claudeOverSimulator,
  job,
  makeRepo,
  signal,
} from '../test/claude/claude-fixtures.js';
import { type BenchResult, ratio } from './bench-result.js';

/** `functions` five-line functions: 5 × functions lines. */
const bigModule = (functions: number) =>
  Array.from(
    { length: functions },
    (_, i) =>
      `export function step${i}(x) {\n  // Scales by ${i}.\n  const factor = ${i};\n  return x * factor;\n}\n`,
  ).join('');

const broken =
  'export function step123(x) {\n  // Scales by 123.\n  const factor = 123;\n  return x * factor;\n}\n';
const fixed =
  'export function step123(x) {\n  // Scales by 123, then offsets by one.\n  const factor = 123;\n  return x * factor + 1;\n}\n';

async function refineWith(answer: object, big: string) {
  const { dir, baseSha } = makeRepo({ 'src/big.js': big });
  const { simulator, effects } = await claudeOverSimulator(
    { script: [{ answer }] },
    { repoDir: dir, maxInputTokens: 150_000 },
  );
  try {
    const tried = attempt(1, 'Test the offset.', ['test/big.test.js']);
    const j = job({ baseSha, analysis, attempt: 2, attempts: [tried], changes: tried.proposed });
    const out = await effects.refine(effectInput(j, 'refine'), { signal: signal() });
    if (simulator.messages().length !== 1) throw new Error('the answer was sent back');
    return { out, outputTokens: simulator.messages()[0]!.response.usage.output_tokens as number };
  } finally {
    await simulator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export default async function run(): Promise<BenchResult[]> {
  const big = bigModule(600);
  const edit = await refineWith(
    {
      explanation: 'step123 lacks the offset: add it.',
      edits: [{ path: 'src/big.js', search: broken, replace: fixed }],
      changes: [],
      deletePaths: [],
    },
    big,
  );
  const whole = await refineWith(
    {
      explanation: 'step123 lacks the offset: add it.',
      edits: [],
      changes: [{ path: 'src/big.js', content: big.replace(broken, fixed) }],
      deletePaths: [],
    },
    big,
  );
  const fixedFile = (r: typeof edit) => r.out.changes.find((c) => c.path === 'src/big.js')?.content;
  if (fixedFile(edit) !== big.replace(broken, fixed) || fixedFile(whole) !== fixedFile(edit))
    throw new Error('the two answers do not make the same file');
  return [
    {
      name: 'edit-answer',
      metric: 'output tokens of a 5-line fix to a 3,000-line file, as an edit vs the whole file',
      value: edit.outputTokens,
      baseline: whole.outputTokens,
      ratio: ratio(edit.outputTokens, whole.outputTokens),
      unit: 'tokens',
      goal: '<= 0.05 of the whole-file answer',
    },
  ];
}

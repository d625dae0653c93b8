// cache-share: the share of input tokens read from the prompt cache on attempts 2 and later, by
// the Anthropic simulator's accounting (cache_read_input_tokens over all input tokens: read,
// written and uncached), for a realistic four-attempt job. booty runs the job for real: the local
// GitHub and Anthropic simulators, real git, the repository's real tests. The repository is the
// demo's sample with a small library beside it (16 modules, about 50 KB), and the issue is the
// demo's (add parseDuration); the scripted model gets it wrong three times (each time a different
// wrong change) and right on the fourth. The baseline is the same requests laid out as before the
// history moved forward: the attempts after the task, uncached, with breakpoints only on the
// repository and the issue, and the current content of every file the job changed in the uncached
// part as it was then; they are sent in the same order to a fresh simulator.
import fs from 'node:fs';
import path from 'node:path';
import { type RecordedRequest, startAnthropicSimulator } from '../sim/anthropic/anthropic-simulator.js';
import { appliedChanges } from '../src/claude/attempt-patches.js';
import { touchedFileText } from '../src/claude/prompts.js';
import { examplesDir } from '../src/demo/demo-script.js';
import type { FileChange } from '../src/events/effect-results.js';
import { type AttemptRecord, mergeChanges } from '../src/machines/job-context.js';
import { e2eWorld } from '../test/e2e/e2e-world.js';
import { tempDir } from '../test/support/job-harness.js';
import { type BenchResult, ratio, round } from './bench-result.js';

const read = (...p: string[]) => fs.readFileSync(path.join(examplesDir, ...p), 'utf8');

/** A library module of ten documented functions: about 3 KB, as small real modules are. */
function libraryModule(m: number): string {
  return Array.from(
    { length: 10 },
    (_, f) => `/**
 * Converts a reading of kind ${m}.${f} into the canonical unit, rounding half away from zero.
 * Throws a RangeError naming the input when it is not a finite number.
 */
export function convert${m}_${f}(value, scale = ${f + 1}) {
  if (!Number.isFinite(value)) throw new RangeError(\`not a reading: \${value}\`);
  const scaled = value * scale + ${m};
  return Math.sign(scaled) * Math.round(Math.abs(scaled));
}
`,
  ).join('\n');
}

function repository(): string {
  const dir = tempDir('booty-cache-share-');
  fs.cpSync(path.join(examplesDir, 'sample-repo'), dir, { recursive: true });
  // Four attempts in all, and no early stop: the wrong answers fail the same test each time.
  const config = path.join(dir, '.github/booty.yml');
  fs.writeFileSync(
    config,
    fs.readFileSync(config, 'utf8').replace('maxAttempts: 3', 'maxAttempts: 4\nstallAfter: 4'),
  );
  for (let m = 0; m < 16; m++) {
    fs.mkdirSync(path.join(dir, 'src/lib'), { recursive: true });
    fs.writeFileSync(path.join(dir, `src/lib/convert-${m}.js`), libraryModule(m));
  }
  return dir;
}

/** Four answers as edits: three different wrong ones (each fails "250ms"), then the fix. */
function answers(): object[] {
  const original = read('sample-repo', 'src', 'duration.js');
  const end = original.trimEnd().split('\n').slice(-2).join('\n');
  const fixed = read('demo-turns', 'parse-duration.js');
  const buggy = fixed.replace('(ms|d|h|m|s)', '(d|h|m|s|ms)');
  const comment = fixed.split('\n')[1]!;
  const test = { path: 'test/parse-duration.test.js', content: read('demo-turns', 'parse-duration.test.js') };
  const edit = (search: string, replace: string) => ({ path: 'src/duration.js', search, replace });
  return [
    {
      explanation:
        'Add parseDuration beside formatDuration, reading each number and unit in turn, with tests.',
      edits: [edit(end, `${end}\n\n${buggy}`)],
      changes: [test],
      deletePaths: [],
    },
    {
      explanation: 'The units may need trimming before the match; trim each part.',
      edits: [
        edit(
          '    while (input[PART.lastIndex]',
          '    // Skip the spaces between parts.\n    while (input[PART.lastIndex]',
        ),
      ],
      changes: [],
      deletePaths: [],
    },
    {
      explanation: 'Reset the regular expression before every parse, not only once.',
      edits: [
        edit(comment, `${comment}\n// The expression is sticky: lastIndex is reset before each parse.`),
      ],
      changes: [],
      deletePaths: [],
    },
    {
      explanation: 'The alternation tries "m" before "ms", so "250ms" reads as minutes: put "ms" first.',
      edits: [edit('(d|h|m|s|ms)', '(ms|d|h|m|s)')],
      changes: [],
      deletePaths: [],
    },
  ];
}

/** The same request as booty laid it out before: attempts after the task, uncached, and the files. */
function asBefore(body: any, files: FileChange[]): any {
  const [stable, ...rest] = body.messages[0].content as { type: string; text: string }[];
  const history = rest.slice(0, -1).map((b) => b.text);
  const tail = rest.at(-1)!.text;
  const current = files.map((c) => touchedFileText(c.path, c.content));
  return {
    ...body,
    messages: [
      {
        role: 'user',
        content: [stable, { type: 'text', text: [tail, ...history, ...current].join('\n\n') }],
      },
      ...body.messages.slice(1),
    ],
  };
}

/** What the job had changed before each refinement: the files a request used to carry whole. */
function changedBefore(attempts: AttemptRecord[]): FileChange[][] {
  let changes: FileChange[] = [];
  return attempts.slice(0, -1).map((a) => {
    changes = mergeChanges(changes, appliedChanges(a));
    return changes;
  });
}

const share = (requests: { usage: any }[]) => {
  let read = 0;
  let all = 0;
  for (const { usage } of requests) {
    read += usage.cache_read_input_tokens;
    all += usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  }
  return round((read / all) * 100);
};

async function runJob(): Promise<{ requests: RecordedRequest[]; attempts: AttemptRecord[] }> {
  const script = answers();
  const analysis = JSON.parse(read('demo-turns', 'analysis.json'));
  let n = 0;
  const world = await e2eWorld('pass', {
    repoDir: repository(),
    responder: (request) =>
      request.toolName === 'submit_analysis' ? { answer: analysis } : { answer: script[n++] },
  });
  try {
    const booty = await world.startInProcess();
    await world.label();
    const [job] = await booty.store.listJobs();
    const end = await booty.server.supervisor.whenFinished(job!.jobId);
    if (end.context.attempts.length !== 4 || end.context.outcome?.reason !== 'tests-passed')
      throw new Error(
        `the job did not pass on attempt 4: ${JSON.stringify(end.context.outcome)} ${JSON.stringify(
          world.anthropic
            .messages()
            .map((r) => r.body.messages.at(-1).content.at(-1))
            .filter((c: any) => c.type === 'tool_result'),
        )}`,
      );
    return {
      requests: world.anthropic.messages().filter((r) => r.toolName === 'submit_changes'),
      attempts: end.context.attempts,
    };
  } finally {
    await world.close();
  }
}

export default async function run(): Promise<BenchResult[]> {
  const { requests, attempts } = await runJob();
  const [generate, ...refines] = requests;
  const files = changedBefore(attempts);
  const now = share(refines.map((r) => ({ usage: r.response.usage })));
  // The same requests in the earlier layout, through a fresh simulator's cache.
  const sim = await startAnthropicSimulator({ responder: () => ({ answer: {} }) });
  const before: { usage: any }[] = [];
  try {
    for (const body of [generate!.body, ...refines.map((r, i) => asBefore(r.body, files[i]!))]) {
      const res = await fetch(`${sim.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify(body),
      });
      before.push((await res.json()) as { usage: any });
    }
  } finally {
    await sim.close();
  }
  const then = share(before.slice(1));
  const perAttempt = refines.map(
    (r, i) =>
      `attempt ${i + 2}: ${share([{ usage: r.response.usage }])}% (before: ${share([before[i + 1]!])}%)`,
  );
  process.stderr.write(`   ${perAttempt.join('; ')}\n`);
  return [
    {
      name: 'cache-share',
      metric: 'input tokens read from the prompt cache, attempts 2-4',
      value: now,
      baseline: then,
      ratio: ratio(now, then),
      unit: '%',
      goal: '>= 85 %',
    },
  ];
}

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tokensOf } from '../../sim/anthropic/anthropic-wire.js';
import { examplesDir } from '../../src/demo/demo-script.js';
import { stateName } from '../../src/machines/job-states.js';
import { tempDir } from '../support/job-harness.js';
import { e2eWorld, type WorldOptions } from './e2e-world.js';
import { scriptedModel } from './scripted-model.js';

// Refining end to end, through the local GitHub and Anthropic, real git and real test runs: a
// patch that repeats an earlier attempt is never tested again, and a small fix to a big file is
// asked for, and answered, as an edit.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

async function runJob(options: WorldOptions & { env?: Record<string, string> }) {
  world = await e2eWorld('pass', options);
  const booty = await world.startInProcess(options.env);
  await world.label();
  const [job] = await booty.store.listJobs();
  const snapshot = await booty.server.supervisor.whenFinished(job!.jobId);
  const log = await booty.store.readStream(job!.jobId);
  return { snapshot, log };
}

const testFile = (body: string) =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\ntest('the new case', () => ${body});\n`;

describe('refining end to end', () => {
  it('a repeated patch is rejected without running the tests: sent back once, then the attempt is spent untested', async () => {
    const failing = { path: 'test/new-case.test.js', content: testFile('assert.equal(1, 2)') };
    const passing = { path: 'test/new-case.test.js', content: testFile('assert.equal(2, 2)') };
    const { snapshot, log } = await runJob({
      responder: scriptedModel([
        { explanation: 'First try.', changes: [failing], deletePaths: [] },
        { explanation: 'Same again.', changes: [failing], deletePaths: [] },
        { explanation: 'Same again, really.', changes: [failing], deletePaths: [] },
        { explanation: 'Compare equal numbers.', changes: [passing], deletePaths: [] },
      ]),
      env: { BOOTY_MAX_ATTEMPTS: '3' },
    });

    expect(stateName(snapshot)).toBe('promoted');
    const steps = log
      .filter((r) => r.type === 'StepSucceeded')
      .map((r) => `${r.data.step}:${r.data.attempt}`);
    // The tests ran on the base, on attempt 1 and on attempt 3: never on attempt 2's repeat.
    expect(steps.filter((s) => s.startsWith('test:') || s.startsWith('baseline:'))).toEqual([
      'baseline:0',
      'test:1',
      'test:3',
    ]);
    expect(snapshot.context.attempts.map((a) => [a.n, a.test === null, a.failureClass ?? null])).toEqual([
      [1, false, 'assertion'],
      [2, true, 'invalid-model-output'],
      [3, false, null],
    ]);
    const refine2 = log.find((r) => r.data.step === 'refine' && r.data.attempt === 2)!;
    expect(refine2.data.result).toMatchObject({ changes: [], repeated: 1 });
    expect(snapshot.context.attempts[1]!.repeated).toBe(1);
    // The model was told which attempt it repeated, once, and attempt 3's request shows why 2 was not run.
    const requests = world!.anthropic.messages().filter((r) => r.toolName === 'submit_changes');
    expect(requests).toHaveLength(4);
    expect(requests[2]!.raw).toContain('this answer leaves the code exactly as attempt 1 left it');
    expect(requests[3]!.raw).toContain(
      'booty did not apply this answer: this answer leaves the code exactly as attempt 1 left it',
    );
  });

  it('an answer still invalid after its repair turn spends its attempt untested; the next, told why, gets the job promoted', async () => {
    const passing = { path: 'test/new-case.test.js', content: testFile('assert.equal(2, 2)') };
    const invalid = { explanation: 'Here it is.', changes: 'see above', deletePaths: [] };
    const { snapshot, log } = await runJob({
      responder: scriptedModel([
        invalid,
        invalid,
        { explanation: 'A passing case.', changes: [passing], deletePaths: [] },
      ]),
      env: { BOOTY_MAX_ATTEMPTS: '3' },
    });

    expect(stateName(snapshot)).toBe('promoted');
    expect(snapshot.context.attempts.map((a) => [a.n, a.test === null, a.failureClass ?? null])).toEqual([
      [1, true, 'invalid-model-output'],
      [2, false, null],
    ]);
    expect(log.filter((r) => r.type === 'StepFailed')).toEqual([]);
    const requests = world!.anthropic.messages().filter((r) => r.toolName === 'submit_changes');
    expect(requests).toHaveLength(3);
    expect(requests[2]!.raw).toContain(
      "booty did not apply this answer: Claude's generate answer is still invalid after one repair turn",
    );
  });

  it('a refine request for a 3,000-line file that needs a 5-line fix asks for, and gets, an edit answer', async () => {
    const repoDir = tempDir('booty-big-file-');
    fs.cpSync(path.join(examplesDir, 'sample-repo'), repoDir, { recursive: true });
    const big = bigModule(600);
    expect(big.split('\n').length - 1).toBe(3_000);
    fs.writeFileSync(path.join(repoDir, 'src/big.js'), big);
    const broken =
      'export function step123(x) {\n  // Scales by 123.\n  const factor = 123;\n  return x * factor;\n}\n';
    const fixed =
      'export function step123(x) {\n  // Scales by 123, then offsets by one.\n  const factor = 123;\n  return x * factor + 1;\n}\n';
    const newTest = {
      path: 'test/big.test.js',
      content: `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { step123 } from '../src/big.js';\ntest('step123 offsets by one', () => assert.equal(step123(1), 124));\n`,
    };
    const { snapshot } = await runJob({
      repoDir,
      responder: scriptedModel([
        { explanation: 'Test the offset first.', changes: [newTest], deletePaths: [] },
        {
          explanation: 'step123 lacks the offset: add it.',
          edits: [{ path: 'src/big.js', search: broken, replace: fixed }],
          changes: [],
          deletePaths: [],
        },
      ]),
      env: { BOOTY_MAX_ATTEMPTS: '2' },
    });

    expect(stateName(snapshot)).toBe('promoted');
    const refine = world!.anthropic.messages().filter((r) => r.toolName === 'submit_changes')[1]!;
    // Asked: the tool takes edits, the rules say existing files change by edits, and the file is there to edit.
    expect(Object.keys(refine.body.tools[0].input_schema.properties)).toEqual([
      'explanation',
      'edits',
      'changes',
      'deletePaths',
    ]);
    expect(refine.body.system[0].text).toContain('Change an existing file with search/replace edits');
    expect(refine.body.system[1].text).toContain(`<file path="src/big.js">\n${big}`);
    // Got: the answer is one edit, and its output tokens are a sliver of the file's.
    const answered = refine.response.content[0].input;
    expect(answered.edits).toHaveLength(1);
    expect(refine.response.usage.output_tokens).toBeLessThan(tokensOf(big) / 50);
    // The change logged and pushed is the whole file with the five lines fixed.
    expect(snapshot.context.changes.find((c) => c.path === 'src/big.js')!.content).toBe(
      big.replace(broken, fixed),
    );
  });
});

/** A module of `functions` five-line functions: 5 × functions lines. */
function bigModule(functions: number): string {
  return Array.from(
    { length: functions },
    (_, i) =>
      `export function step${i}(x) {\n  // Scales by ${i}.\n  const factor = ${i};\n  return x * factor;\n}\n`,
  ).join('');
}

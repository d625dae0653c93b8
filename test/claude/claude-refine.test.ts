import { afterEach, describe, expect, it } from 'vitest';
import { type AnthropicSimulator, scriptByTool } from '../../sim/anthropic/anthropic-simulator.js';
import { changesTool } from '../../src/claude/answer-schemas.js';
import type { Keep } from '../../src/claude/context-budget.js';
import { repoReaderFor } from '../../src/claude/repo-reader.js';
import { HISTORY_SHARE, planRequest } from '../../src/claude/request-plan.js';
import { estimateTokens } from '../../src/claude/token-counter.js';
import { Generated } from '../../src/events/effect-results.js';
import { effectInput, type JobContext } from '../../src/machines/job-context.js';
import { CLASS_GUIDANCE } from '../../src/refine/class-guidance.js';
import { checkChanges } from '../../src/workspace/path-policy.js';
import { analysis, attempt, claudeOverSimulator, job, MODEL, makeRepo, signal } from './claude-fixtures.js';

// Refining with the history: the answer states its plan first, edits existing files strictly, and
// a patch that recreates what an earlier attempt already tested is sent back, then dropped.

const ephemeral = { type: 'ephemeral' };
let sim: AnthropicSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** The text booty sent back in the repair turn of the request at `index`. */
const sentBack = (s: AnthropicSimulator, index: number): string =>
  s.messages()[index]!.body.messages.at(-1).content[0].content;

/** A job at `attempt`, after the given attempts, with what they applied as its changes. */
function refineJob(baseSha: string, attempts: ReturnType<typeof attempt>[]): JobContext {
  const changes = new Map<string, string | null>();
  for (const a of attempts) for (const c of a.proposed) changes.set(c.path, c.content);
  return job({
    baseSha,
    analysis,
    attempt: attempts.length + 1,
    attempts,
    changes: [...changes]
      .map(([path, content]) => ({ path, content }))
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
  });
}

/** The one-line fix to the sample calculator's fifth operation, as an edit. */
const OP5_FIX = {
  path: 'src/calculator.js',
  search: '  return a * 5 + b; // operation 5',
  replace: '  return a * 5 - b; // operation 5',
};

/** A long loop's seventh attempt, against a small input budget (20,000 tokens). */
const seventhTry = (repoDir: string) =>
  claudeOverSimulator(
    { script: [answer('Seventh try.', [{ path: 'src/subtract.js', content: '// seven\n' }])] },
    { repoDir, maxInputTokens: 20_000 },
  );

/** Attempt n's failure: 6,000 characters of output, about 2,300 estimated tokens. */
const loud = (n: number) => `not ok ${n}\n${'the same long failure line, again and again\n'.repeat(140)}`;

const answer = (explanation: string, changes: { path: string; content: string }[], edits: object[] = []) => ({
  answer: { explanation, edits, changes, deletePaths: [] },
});

describe('refine with history', () => {
  it('the answer schema asks what will change and why before the change itself', () => {
    const schema = changesTool.tool.input_schema as { properties: Record<string, { description: string }> };
    expect(Object.keys(schema.properties)).toEqual(['explanation', 'edits', 'changes', 'deletePaths']);
    expect(schema.properties.explanation!.description).toMatch(
      /^Before any change: what you will change and why\./,
    );
  });

  it('a repeated patch is rejected: sent back once naming the attempt it repeats, and a different one is taken', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      {
        script: [
          answer('Try the same again.', [{ path: 'src/subtract.js', content: '// attempt 1\n' }]),
          answer('Attempt 1 returned nothing; return a - b.', [
            { path: 'src/subtract.js', content: 'export const subtract = (a, b) => a - b;\n' },
          ]),
        ],
      },
      { repoDir: dir },
    );
    sim = started.simulator;
    const j = refineJob(baseSha, [attempt(1, 'Add subtract.', ['src/subtract.js'])]);

    const out = await started.effects.refine(effectInput(j, 'refine'), { signal: signal() });

    expect(sim.messages()).toHaveLength(2);
    expect(sentBack(sim, 1)).toContain(
      'this answer leaves the code exactly as attempt 1 left it, and attempt 1 did not pass: running the same tests again cannot help. Make a different change',
    );
    expect(out.changes).toEqual([
      { path: 'src/subtract.js', content: 'export const subtract = (a, b) => a - b;\n' },
    ]);
    expect(out.explanation).toBe('Attempt 1 returned nothing; return a - b.');
    expect(out.repeated).toBeUndefined();
  });

  it('a repeated patch is rejected twice: the refine applies nothing, so the attempt is spent without a test run', async () => {
    const { dir, baseSha } = makeRepo();
    // Attempt 3 edits attempt 2's code back to what attempt 1 tested: the same code, by another way.
    const back = { path: 'src/subtract.js', search: '// attempt 2', replace: '// attempt 1' };
    const started = await claudeOverSimulator(
      { script: [answer('Go back.', [], [back]), answer('Go back anyway.', [], [back])] },
      { repoDir: dir },
    );
    sim = started.simulator;
    const j = refineJob(baseSha, [
      attempt(1, 'First try.', ['src/subtract.js']),
      attempt(2, 'Second try.', ['src/subtract.js']),
    ]);

    const out = await started.effects.refine(effectInput(j, 'refine'), { signal: signal() });

    expect(sim.messages()).toHaveLength(2);
    expect(sentBack(sim, 1)).toContain('this answer leaves the code exactly as attempt 1 left it');
    expect(out.changes).toEqual([]);
    expect(out.repeated).toBe(1);
    expect(out.explanation).toBe(
      'booty did not apply this answer: this answer leaves the code exactly as attempt 1 left it, and attempt 1 did not pass: running the same tests again cannot help. Make a different change\n\nGo back anyway.',
    );
    expect(out.usage.outputTokens).toBe(
      sim.messages().reduce((n, r) => n + r.response.usage.output_tokens, 0),
    );
  });

  it('edits apply strictly: one that does not match exactly once is sent back naming its file and block, and the repaired edits resolve to whole files', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      {
        script: [
          answer(
            'Fix op5.',
            [],
            [OP5_FIX, { path: 'src/calculator.js', search: '  return a * 1 - b;', replace: 'x' }],
          ),
          answer(
            'Fix op5.',
            [],
            [OP5_FIX, { path: 'src/calculator.js', search: 'return a * ', replace: 'x' }],
          ),
        ],
      },
      { repoDir: dir },
    );
    sim = started.simulator;
    const j = job({ baseSha, analysis, attempt: 1 });

    const out = await started.effects.generate(effectInput(j, 'generate'), { signal: signal() });

    // The first answer's second block is not in the file; the second one's is in every operation.
    expect(sentBack(sim, 1)).toContain(
      '- edits[1] (edit 2 of 2 for src/calculator.js): its search text occurs nowhere in src/calculator.js after the edits before it; copy the exact current lines',
    );
    // With the file as it is now, to copy from: the repair turn's own text, not kept with the answer.
    expect(sentBack(sim, 1)).toContain(
      'The current content of src/calculator.js:\n<current_file path="src/calculator.js">\n// A tiny calculator',
    );
    // The repaired answer's second block matches many places too: still not applied, the attempt gets nothing.
    expect(out.changes).toEqual([]);
    expect(out.explanation).toBe(
      'booty did not apply this answer: edits[1] (edit 2 of 2 for src/calculator.js): its search text occurs more than once in src/calculator.js after the edits before it; copy the exact current lines and include enough of them to match exactly once\n\nFix op5.',
    );
  });

  it('an edit to a protected path is never resolved: its file is not read into a repair turn, and the path policy rejects it', async () => {
    const secret = 'API_TOKEN=s3cret-token-value';
    const { dir, baseSha } = makeRepo({ '.env': `${secret}\n`, 'certs/server.pem': `${secret}-pem\n` });
    const started = await claudeOverSimulator(
      {
        script: [
          answer(
            'Fix op5, and the token.',
            [],
            [
              OP5_FIX,
              { path: '.env', search: 'API_TOKEN=wrong', replace: 'API_TOKEN=x' },
              { path: 'certs/server.pem', search: 'nowhere', replace: 'x' },
            ],
          ),
        ],
      },
      { repoDir: dir },
    );
    sim = started.simulator;
    const j = job({ baseSha, analysis, attempt: 1 });

    const out = await started.effects.generate(effectInput(j, 'generate'), { signal: signal() });

    // No repair turn: the edits that did not match were to protected files, never read.
    expect(sim.messages()).toHaveLength(1);
    expect(JSON.stringify(sim.messages()[0]!.body.messages)).not.toContain('s3cret');
    expect(out.changes.map((c) => [c.path, c.content === null ? null : 'content'])).toEqual([
      ['.env', null],
      ['certs/server.pem', null],
      ['src/calculator.js', 'content'],
    ]);
    // The apply step's policy rejects them, and the attempt lists them as rejected.
    const { accepted, rejected } = await checkChanges({
      dir,
      changes: out.changes,
      protectedPaths: [],
      readBase: async () => null,
    });
    expect(accepted.map((c) => c.path)).toEqual(['src/calculator.js']);
    expect(rejected.map((r) => [r.path, r.rule])).toEqual([
      ['.env', 'path-protected'],
      ['certs/server.pem', 'path-protected'],
    ]);
  });

  it('names a credential file in the tree but never sends what it holds, even when the analysis asks for it', async () => {
    const secret = 's3cret-token-value';
    const { dir, baseSha } = makeRepo({
      '.env': `API_TOKEN=${secret}\n`,
      'config/.npmrc': `//registry.npmjs.org/:_authToken=${secret}-npm\n`,
      'certs/server.pem': `${secret}-pem\n`,
    });
    const started = await claudeOverSimulator(
      { script: [answer('Fix op5.', [], [OP5_FIX])] },
      { repoDir: dir },
    );
    sim = started.simulator;
    const asks = { ...analysis, filesToRead: ['.env', 'config/.npmrc', 'certs/server.pem', 'README.md'] };
    const j = job({
      baseSha,
      analysis: asks,
      attempt: 1,
      body: 'The API_TOKEN in .env and .npmrc is wrong.',
    });

    await started.effects.generate(effectInput(j, 'generate'), { signal: signal() });

    const sent = JSON.stringify(sim.messages()[0]!.body);
    expect(sent).not.toContain('s3cret');
    // The tree still names them, so the model knows they exist; README.md, also asked for, is read.
    for (const name of ['.env', 'config/.npmrc', 'certs/server.pem']) expect(sent).toContain(name);
    expect(sent).toContain('A calculator library.');
  });

  it("an edit applies to the job's current version of a file, which the request shows as the base plus the attempts' patches", async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      {
        script: [
          answer(
            'Subtract, not add.',
            [],
            [
              {
                path: 'src/calculator.js',
                search: '// attempt 1\n',
                replace: 'export const op1 = (a, b) => a - b;\n',
              },
              { path: 'README.md', search: '# widgets\n', replace: '# widgets, with subtract\n' },
            ],
          ),
        ],
      },
      { repoDir: dir },
    );
    sim = started.simulator;
    const j = refineJob(baseSha, [attempt(1, 'Rewrite the calculator.', ['src/calculator.js'])]);

    const out = await started.effects.refine(effectInput(j, 'refine'), { signal: signal() });

    expect(sim.messages()).toHaveLength(1);
    expect(out.changes).toEqual([
      { path: 'README.md', content: '# widgets, with subtract\n\nA calculator library.\n' },
      { path: 'src/calculator.js', content: 'export const op1 = (a, b) => a - b;\n' },
    ]);
    // The calculator is in the repository context at the base, and attempt 1's patch rewrote it: not sent again.
    const request = sim.messages()[0]!.body;
    expect(request.system[1].text).toContain('<file path="src/calculator.js">');
    expect(request.messages[0].content[1].text).toContain('--- a/src/calculator.js\n+++ b/src/calculator.js');
    expect(request.messages[0].content.at(-1).text).not.toContain('<current_file');
  });

  it('an unknown failure gets one cheap classification call: its guidance goes into the refine request, its tokens into the usage', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      {
        responder: scriptByTool({
          submit_failure_class: [{ answer: { failureClass: 'type-or-value' } }],
          submit_changes: [
            answer('Guard the missing value.', [
              { path: 'src/subtract.js', content: 'export const subtract = (a = 0, b = 0) => a - b;\n' },
            ]),
          ],
        }),
      },
      { repoDir: dir },
    );
    sim = started.simulator;
    const unknown = {
      ...attempt(1, 'Add subtract.', ['src/subtract.js'], 'it broke somehow'),
      failureClass: 'unknown' as const,
    };
    const j = refineJob(baseSha, [unknown]);

    const out = await started.effects.refine(effectInput(j, 'refine'), { signal: signal() });

    const [classify, refine] = sim.messages();
    expect(classify!.toolName).toBe('submit_failure_class');
    // Cheap: the failure alone, no repository, a short answer.
    expect(classify!.body.system).toHaveLength(1);
    expect(classify!.raw).not.toContain('<repository');
    expect(classify!.body.max_tokens).toBe(256);
    expect(classify!.body.messages[0].content[0].text).toContain('it broke somehow');
    expect(refine!.body.messages[0].content.at(-1).text).toContain(
      `A quick reading of attempt 1's failure names it: type-or-value. ${CLASS_GUIDANCE['type-or-value']}`,
    );
    expect(out.classifiedAs).toBe('type-or-value');
    // The log keeps it: the Generated schema the effect wrapper validates with does not strip it.
    expect(Generated.parse({ ...out, at: 1 }).classifiedAs).toBe('type-or-value');
    expect(out.usage.outputTokens).toBe(
      classify!.response.usage.output_tokens + refine!.response.usage.output_tokens,
    );
    expect(out.usage.inputTokens).toBe(
      classify!.response.usage.input_tokens + refine!.response.usage.input_tokens,
    );
  });

  it('a classification that fails leaves the refine to go on without it, and its tokens still count', async () => {
    const { dir, baseSha } = makeRepo();
    const nonsense = { answer: { failureClass: 'cosmic-rays' } };
    const started = await claudeOverSimulator(
      {
        responder: scriptByTool({
          submit_failure_class: [nonsense, nonsense],
          submit_changes: [
            answer('Try again.', [
              { path: 'src/subtract.js', content: 'export const subtract = (a, b) => a - b;\n' },
            ]),
          ],
        }),
      },
      { repoDir: dir },
    );
    sim = started.simulator;
    const j = refineJob(baseSha, [
      { ...attempt(1, 'Add subtract.', ['src/subtract.js']), failureClass: 'unknown' as const },
    ]);

    const out = await started.effects.refine(effectInput(j, 'refine'), { signal: signal() });

    expect(sim.messages().map((r) => r.toolName)).toEqual([
      'submit_failure_class',
      'submit_failure_class',
      'submit_changes',
    ]);
    expect(out.classifiedAs).toBeUndefined();
    expect(sim.messages()[2]!.raw).not.toContain('A quick reading');
    expect(out.usage.outputTokens).toBe(
      sim.messages().reduce((n, r) => n + r.response.usage.output_tokens, 0),
    );
  });

  it("a long loop's oldest attempts are left out past the history's share of the input budget; the latest stay, with the breakpoints", async () => {
    const { dir, baseSha } = makeRepo();
    const started = await seventhTry(dir);
    sim = started.simulator;
    // Six attempts, each failing with 6,000 characters of output: about 2,300 estimated tokens each.
    const attempts = [1, 2, 3, 4, 5, 6].map((n) => attempt(n, `Try ${n}.`, ['src/subtract.js'], loud(n)));
    const j = refineJob(baseSha, attempts);

    await started.effects.refine(effectInput(j, 'refine'), { signal: signal() });

    const content = sim.messages()[0]!.body.messages[0].content as { text: string; cache_control?: object }[];
    // The issue, attempts 5 and 6 (the first saying what is left out), the task.
    expect(content).toHaveLength(4);
    expect(
      content[1]!.text.startsWith(
        '(The 4 oldest attempts are left out here, to keep the request within its size.)\n<attempt n="5">',
      ),
    ).toBe(true);
    expect(content[2]!.text.startsWith('<attempt n="6">')).toBe(true);
    expect(content.map((b) => b.cache_control ?? null)).toEqual([ephemeral, ephemeral, ephemeral, null]);
    expect(content.slice(1, 3).reduce((n, b) => n + estimateTokens(b.text), 0)).toBeLessThanOrEqual(
      20_000 * HISTORY_SHARE,
    );
  });

  it("when the oldest attempts are left out, every changed file's current text is sent: the patches left cannot rebuild it", async () => {
    const { dir, baseSha } = makeRepo();
    const started = await seventhTry(dir);
    sim = started.simulator;
    // Attempt 1 wrote both files; the later ones only the calculator, so subtract.js's one patch is left out.
    const attempts = [1, 2, 3, 4, 5, 6].map((n) =>
      attempt(
        n,
        `Try ${n}.`,
        n === 1 ? ['src/calculator.js', 'src/subtract.js'] : ['src/calculator.js'],
        loud(n),
      ),
    );
    const j = refineJob(baseSha, attempts);

    await started.effects.refine(effectInput(j, 'refine'), { signal: signal() });

    const content = sim.messages()[0]!.body.messages[0].content as { text: string }[];
    expect(content[1]!.text).toMatch(/^\(The 4 oldest attempts are left out here/);
    const task = content.at(-1)!.text;
    expect(task).toContain('<current_file path="src/calculator.js">\n// attempt 6\n');
    expect(task).toContain('<current_file path="src/subtract.js">\n// attempt 1\n');
  });

  it("when the fitting trims a changed file's base copy from the repository context, its current text is sent instead", async () => {
    const { dir, baseSha } = makeRepo();
    const j = refineJob(baseSha, [attempt(1, 'Rewrite the calculator.', ['src/calculator.js'])]);
    const reader = await repoReaderFor(dir, { ref: baseSha });
    const plan = await planRequest({
      step: 'refine',
      model: MODEL,
      tool: changesTool.tool,
      job: j,
      reader,
      tree: await reader.listFiles(),
      ranked: ['src/calculator.js', 'README.md'],
      stable: 'the issue',
      history: ['<attempt n="1">…</attempt>'],
      head: 'the task',
      currentFiles: [
        { path: 'src/calculator.js', text: '<current_file>// attempt 1</current_file>', rebuiltFrom: 'base' },
      ],
      maxInputTokens: 20_000,
    });
    const task = (keep: Keep) => JSON.stringify(plan.render(keep).messages.at(-1)!.content.at(-1));
    expect(plan.repoFiles.map((f) => f.path)).toEqual(['src/calculator.js', 'README.md']);
    expect(task({ repoFiles: 2, sections: plan.sections.length })).not.toContain('// attempt 1');
    expect(task({ repoFiles: 1, sections: plan.sections.length })).not.toContain('// attempt 1');
    expect(task({ repoFiles: 0, sections: plan.sections.length })).toContain(
      '<current_file>// attempt 1</current_file>',
    );
  });

  it('a refine that stays invalid after its repair turn applies nothing and carries the tokens both calls spent', async () => {
    const { dir, baseSha } = makeRepo();
    const broken = { answer: { explanation: 'x', changes: 'not a list' } };
    const started = await claudeOverSimulator({ script: [broken, broken] }, { repoDir: dir });
    sim = started.simulator;
    const j = refineJob(baseSha, [attempt(1, 'Add subtract.', ['src/subtract.js'])]);

    const out = await started.effects.refine(effectInput(j, 'refine'), { signal: signal() });

    expect(out.changes).toEqual([]);
    expect(out.explanation).toMatch(
      /^booty did not apply this answer: Claude's refine answer is still invalid after one repair turn: /,
    );
    const sum = (key: string) => sim!.messages().reduce((n, r) => n + r.response.usage[key], 0);
    expect(out.usage).toMatchObject({
      inputTokens: sum('input_tokens'),
      outputTokens: sum('output_tokens'),
      cacheReadTokens: sum('cache_read_input_tokens'),
      cacheWriteTokens: sum('cache_creation_input_tokens'),
    });
    expect(out.usage.outputTokens).toBeGreaterThan(0);
  });
});

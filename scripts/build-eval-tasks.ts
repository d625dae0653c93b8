// Builds the built-in eval tasks (eval/builtin.jsonl and eval/tasks/) from eval/sources.json and
// local clones of the public repositories it names (EVAL_MIRRORS/<owner>+<name>/repo, bare, with
// history). For each task: the fix commit's parent is the base; the files the task keeps are
// copied from it (with the licence); the fix's changes to test files are the hidden tests and its
// changes to kept source files the gold patch. The suite is then run as `booty eval` runs it: on the
// base with the hidden tests (FAIL_TO_PASS must fail there), with the gold patch too (they must
// pass), and without the hidden tests before and after the gold patch (what the gate sees: the gold
// patch must keep every visible test passing). A task's optional wrong patch must pass the visible
// tests and fail a hidden one. Run: node --import tsx scripts/build-eval-tasks.ts [--only ID,...]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { git } from '../src/eval/eval-git.js';
import { runSuite } from '../src/eval/hidden-tests.js';
import type { EvalTask } from '../src/eval/task-format.js';
import { importTask } from '../src/eval/task-import.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const evalDir = path.join(root, 'eval');
const mirrors = process.env.EVAL_MIRRORS ?? '/work/.mirror';

const Spec = z.array(
  z.object({
    repo: z.string(),
    slug: z.string(),
    license: z.string(),
    licenseFiles: z.array(z.string()),
    /** package.json fields to replace (a trimmed devDependencies: only the test runner). */
    packageJson: z.record(z.string(), z.unknown()).optional(),
    /** Cargo.toml without dependency and bench sections: the tests need none, and cargo offline resolves none. */
    stripCargo: z.boolean().optional(),
    /** Test files: their changes are the hidden tests. */
    tests: z.string(),
    test: z.string(),
    install: z.string().nullable(),
    tasks: z.array(
      z.object({
        id: z.string(),
        fix: z.string(),
        /** Files and folders copied from the base (test files the fix changes are kept visible). */
        keep: z.array(z.string()),
        title: z.string().optional(),
        body: z.string().optional(),
        /** A plausible wrong fix (a patch on the base) that passes the visible tests only. */
        wrong: z.string().optional(),
      }),
    ),
  }),
);

const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]!.split(',')
  : null;
const specs = Spec.parse(JSON.parse(fs.readFileSync(path.join(evalDir, 'sources.json'), 'utf8')));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-eval-build-'));
const lines: string[] = [];
const existing = fs.existsSync(path.join(evalDir, 'builtin.jsonl'))
  ? new Map(
      fs
        .readFileSync(path.join(evalDir, 'builtin.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => [JSON.parse(l).id as string, l]),
    )
  : new Map<string, string>();

/** A kept file as the snapshot holds it: package.json and Cargo.toml trimmed where the spec says. */
function trimmed(spec: z.infer<typeof Spec>[number], file: string, text: string): string {
  if (file === 'package.json' && spec.packageJson)
    return `${JSON.stringify({ ...JSON.parse(text), ...spec.packageJson }, null, 2)}\n`;
  if (file !== 'Cargo.toml' || !spec.stripCargo) return text;
  const out: string[] = [];
  let dropping = false;
  const dropped = new Set<string>();
  for (const line of text.split('\n')) {
    const header = /^\s*\[/.exec(line) ? line.trim() : null;
    if (header) dropping = /dependencies\]$|^\[\[bench\]\]$/.test(header);
    if (dropping) {
      const name = /^([A-Za-z0-9_-]+)\s*=/.exec(line)?.[1];
      if (name) dropped.add(name);
      continue;
    }
    out.push(line);
  }
  // Features that name a dropped dependency go too.
  return out
    .filter((l) => ![...dropped].some((d) => new RegExp(`^${d}\\s*=|"(dep:)?${d}[/"?]`).test(l)))
    .join('\n');
}

async function buildTask(
  spec: z.infer<typeof Spec>[number],
  t: z.infer<typeof Spec>[number]['tasks'][number],
  mirror: string,
  base: string,
  fix: string,
): Promise<string> {
  const testPath = new RegExp(spec.tests);
  const dir = path.join(evalDir, 'tasks', spec.slug, t.id);
  fs.rmSync(dir, { recursive: true, force: true });
  const repoDir = path.join(dir, 'repo');
  // The kept files, as they were at the base.
  // The kept files: named ones, folders, and globs (`*.go`: the root's Go files).
  const wanted = [...t.keep, ...spec.licenseFiles];
  const isWanted = picomatch(wanted.filter((k) => /[*?[]/.test(k)));
  const listed = (await git(['ls-tree', '-r', '-z', '--name-only', base], { gitDir: mirror }))
    .split('\0')
    .filter((f) => f && (isWanted(f) || wanted.some((k) => f === k || f.startsWith(`${k}/`))));
  for (const file of listed) {
    const target = path.join(repoDir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, trimmed(spec, file, await git(['show', `${base}:${file}`], { gitDir: mirror })));
  }
  const changed = (await git(['diff', '--name-only', '-z', base, fix], { gitDir: mirror }))
    .split('\0')
    .filter(Boolean);
  const kept = (f: string) =>
    listed.includes(f) || isWanted(f) || t.keep.some((k) => f === k || f.startsWith(`${k}/`));
  const tests = changed.filter((f) => testPath.test(f));
  const sources = changed.filter((f) => !testPath.test(f) && kept(f));
  const dropped = changed.filter((f) => !testPath.test(f) && !kept(f));
  if (dropped.length) console.log(`${t.id}: the gold patch leaves out ${dropped.join(', ')}`);
  const testPatch = await git(['diff', base, fix, '--', ...tests], { gitDir: mirror });
  const goldPatch = await git(['diff', base, fix, '--', ...sources], { gitDir: mirror });
  if (!testPatch || !goldPatch) throw new Error(`${t.id}: the fix has no test change or no source change`);
  fs.writeFileSync(path.join(dir, 'test.patch'), testPatch);
  fs.writeFileSync(path.join(dir, 'gold.patch'), goldPatch);
  if (t.wrong) fs.writeFileSync(path.join(dir, 'wrong.patch'), t.wrong);

  const message = (await git(['log', '-1', '--format=%B', fix], { gitDir: mirror })).trim();
  const [subject, ...rest] = message.split('\n');
  const task: EvalTask = {
    id: t.id,
    repo: repoDir,
    baseCommit: base,
    title: t.title ?? subject!.trim(),
    body: t.body ?? rest.join('\n').trim(),
    hidden: { patch: testPatch, files: [], command: null, failToPass: [], passToPass: [] },
    install: spec.install,
    test: spec.test,
    goldPatch,
    source: null,
    tags: [],
    origin: `eval/sources.json ${t.id}`,
  };
  const bareRoot = fs.mkdtempSync(path.join(work, 'forge-'));
  const forge = {
    createRepo: async (owner: string, name: string) => {
      const bareDir = path.join(bareRoot, owner, `${name}.git`);
      fs.mkdirSync(bareDir, { recursive: true });
      await git(['init', '--quiet', '--bare', '--initial-branch=main', bareDir]);
      return { bareDir };
    },
  };
  const repo = await importTask(task, forge);
  const commitWith = async (patch: string) => {
    const env = { GIT_INDEX_FILE: path.join(bareRoot, 'index') };
    await git(['read-tree', repo.head], { gitDir: repo.bare, env });
    await git(['apply', '--cached', '-'], { gitDir: repo.bare, env, input: patch });
    const tree = (await git(['write-tree'], { gitDir: repo.bare, env })).trim();
    return (await git(['commit-tree', tree, '-p', repo.head, '-m', 'patched'], { gitDir: repo.bare })).trim();
  };
  const gold = await commitWith(goldPatch);
  const run = (commit: string, withTests: boolean) =>
    runSuite({
      bare: repo.bare,
      commit,
      workRoot: work,
      sandbox: 'auto',
      name: t.id,
      tests: withTests ? task.hidden : null,
    });
  const [before, after, visibleBefore, visibleAfter] = await Promise.all([
    run(repo.head, true),
    run(gold, true),
    run(repo.head, false),
    run(gold, false),
  ]);
  for (const s of [before, after, visibleBefore, visibleAfter])
    if (s.problem) throw new Error(`${t.id}: ${s.problem}`);
  const passed = (s: typeof before, id: string) => s.statuses.get(id) === 'passed';
  const failToPass = [...after.statuses.keys()]
    .filter((id) => passed(after, id) && !passed(before, id))
    .sort();
  const passToPass = [...after.statuses.keys()]
    .filter((id) => passed(after, id) && passed(before, id))
    .sort();
  const visibleBroken = [...visibleBefore.statuses.keys()].filter(
    (id) => passed(visibleBefore, id) && !passed(visibleAfter, id),
  );
  if (![...visibleBefore.statuses.values()].includes('passed'))
    throw new Error(
      `no visible test passes on the base (${visibleBefore.statuses.size} reported): is a file missing?`,
    );
  if (failToPass.length === 0) throw new Error(`${t.id}: no test fails before the fix and passes after it`);
  if (visibleBroken.length)
    throw new Error(`${t.id}: the gold patch breaks visible tests ${visibleBroken.join(', ')}`);
  const tags = new Set<string>();
  if (new Set(goldPatch.match(/^diff --git .*$/gm)).size > 1) tags.add('multi-file');
  if (t.wrong) {
    const wrong = await commitWith(t.wrong);
    const [hidden, visible] = await Promise.all([run(wrong, true), run(wrong, false)]);
    const visibleOk = [...visibleBefore.statuses.keys()].every(
      (id) => !passed(visibleBefore, id) || passed(visible, id),
    );
    const hiddenFails = failToPass.some((id) => !passed(hidden, id));
    if (!visibleOk || !hiddenFails)
      throw new Error(
        `${t.id}: the wrong patch must pass the visible tests (${visibleOk}) and fail a hidden one (${hiddenFails}): ${JSON.stringify([...hidden.statuses])}`,
      );
    tags.add('wrong-fix-passes-visible');
  }
  const rel = (p: string) => path.relative(evalDir, p);
  const line = JSON.stringify({
    id: t.id,
    repo: rel(repoDir),
    base_commit: base,
    title: task.title,
    body: task.body,
    hidden_tests: {
      patch_file: rel(path.join(dir, 'test.patch')),
      FAIL_TO_PASS: failToPass,
      PASS_TO_PASS: passToPass,
    },
    install: spec.install,
    test: spec.test,
    gold_patch_file: rel(path.join(dir, 'gold.patch')),
    source: { repo: `https://github.com/${spec.repo}`, fix, license: spec.license },
    tags: [...tags].sort(),
  });
  console.log(
    `${t.id}: ${failToPass.length} FAIL_TO_PASS, ${passToPass.length} PASS_TO_PASS, ${[...tags].join(' ')}`,
  );
  return line;
}

const failed: string[] = [];
for (const spec of specs) {
  const mirror = path.join(mirrors, spec.repo.replace('/', '+'), 'repo');
  const sourceNotes: string[] = [];
  for (const t of spec.tasks) {
    const fix = (await git(['rev-parse', `${t.fix}^{commit}`], { gitDir: mirror })).trim();
    const base = (await git(['rev-parse', `${fix}^`], { gitDir: mirror })).trim();
    sourceNotes.push(`- \`${t.id}\`: fix ${fix}, base (its parent) ${base}`);
    if (only && !only.includes(t.id)) {
      if (existing.has(t.id)) lines.push(existing.get(t.id)!);
      continue;
    }
    try {
      lines.push(await buildTask(spec, t, mirror, base, fix));
    } catch (err) {
      failed.push(`${t.id}: ${(err as Error).message.slice(0, 2000)}`);
      console.log(`SKIPPED ${t.id}: ${(err as Error).message.slice(0, 600)}`);
    }
  }
  fs.mkdirSync(path.join(evalDir, 'tasks', spec.slug), { recursive: true });
  fs.writeFileSync(
    path.join(evalDir, 'tasks', spec.slug, 'SOURCE.md'),
    [
      `# ${spec.repo}`,
      '',
      `Small snapshots of https://github.com/${spec.repo} (${spec.license}; each snapshot keeps the project's ${spec.licenseFiles.join(' and ')}),`,
      "for booty's built-in eval tasks. Each task's `repo/` holds only the files it needs, as they were at the",
      "fix's parent commit; `test.patch` is the fix's change to the tests (hidden from booty), `gold.patch` its",
      'change to the code. Built by scripts/build-eval-tasks.ts from eval/sources.json.',
      ...(spec.packageJson
        ? [
            '',
            `package.json is trimmed: ${Object.keys(spec.packageJson).join(', ')} replaced (the test runner only).`,
          ]
        : []),
      ...(spec.stripCargo
        ? [
            '',
            'Cargo.toml is trimmed: no dependency or bench sections (the tests use none; cargo runs offline).',
          ]
        : []),
      '',
      ...sourceNotes,
      '',
    ].join('\n'),
  );
}
fs.writeFileSync(path.join(evalDir, 'builtin.jsonl'), `${lines.join('\n')}\n`);
fs.rmSync(work, { recursive: true, force: true });
console.log(`${lines.length} tasks in eval/builtin.jsonl; ${failed.length} skipped`);
for (const f of failed) console.log(`skipped ${f}`);

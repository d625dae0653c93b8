import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stateName } from '../../src/machines/job-states.js';
import { SELF_MODIFICATION_NOTE } from '../../src/views/pr-body.js';
import { REPOS_DIR } from '../corpus/materialize.js';
import { tempDir } from '../fixtures/git-fixtures.js';
import { e2eWorld, OWNER, REPO } from './e2e-world.js';
import { scriptedModel } from './scripted-model.js';

// A job on booty's own repository (BOOTY_SELF_REPO) end to end: its booty.yml names no quality
// commands, so booty's own `npm run lint` and `npm run typecheck` run, for real, under bubblewrap;
// and a change to its config is flagged at the top of the PR body.

type World = Awaited<ReturnType<typeof e2eWorld>>;
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

/** The lint corpus repository with booty's scripts in its package.json and no quality commands in booty.yml. */
function selfRepo(): string {
  const dir = tempDir('booty-self-');
  fs.cpSync(path.join(REPOS_DIR, 'node-test-lint'), dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, '.github/booty.yml'),
    'test:\n  command: node --test\ninstall: null\ntimeoutSeconds: 60\n',
  );
  fs.writeFileSync(path.join(dir, 'package.json'), packageJson({}));
  return dir;
}

const packageJson = (more: Record<string, string>) =>
  `${JSON.stringify(
    {
      name: 'durations',
      private: true,
      type: 'module',
      scripts: {
        test: 'node --test',
        lint: 'node scripts/lint.mjs',
        typecheck: 'node --check src/duration.js',
        ...more,
      },
    },
    null,
    2,
  )}\n`;

/** The manifest with a development dependency added, which the PR names. */
const withDevDependency = (manifest: string) =>
  `${JSON.stringify({ ...JSON.parse(manifest), devDependencies: { 'left-pad': '1.3.0' } }, null, 2)}\n`;

describe('a self-modification end to end', () => {
  it("runs booty's own lint and typecheck, flags a change to its config, names the dependency it adds, and stays a draft", async () => {
    const repoDir = selfRepo();
    const model = scriptedModel([
      {
        explanation: 'a script',
        changes: [
          {
            path: 'package.json',
            content: withDevDependency(packageJson({ check: 'npm run lint && npm run typecheck' })),
          },
          { path: 'src/debug.js', content: 'export const debug = (x) => console.log(x);\n' },
        ],
        deletePaths: [],
      },
    ]);
    world = await e2eWorld('pass', { repoDir, responder: model });
    fs.rmSync(repoDir, { recursive: true, force: true });
    const booty = await world.startInProcess({
      BOOTY_SELF_REPO: `${OWNER}/${REPO}`,
      BOOTY_MAX_ATTEMPTS: '1',
    });
    await world.label();
    const [job] = await booty.store.listJobs();
    const snapshot = await booty.server.supervisor.whenFinished(job!.jobId);
    await booty.runtime!.reporter.idle(job!.jobId);

    expect(snapshot.context.config!.quality).toEqual({ commands: ['npm run lint', 'npm run typecheck'] });
    expect(snapshot.context.baseline!.quality!.map((q) => [q.command, q.verdict])).toEqual([
      ['npm run lint', 'pass'],
      ['npm run typecheck', 'pass'],
    ]);
    // The tests pass; booty's own lint finds the console.log the change added.
    const run = snapshot.context.attempts[0]!.test!;
    expect(run.quality!.map((q) => [q.command, q.verdict, q.newFindings])).toEqual([
      ['npm run lint', 'fail', ['src/debug.js: no-console Unexpected console.log']],
      ['npm run typecheck', 'pass', []],
    ]);
    expect(stateName(snapshot)).toBe('prOpened');
    // Read from the base commit beside the push, and logged with the PR.
    expect(snapshot.context.pr!.dependencies).toEqual([
      { file: 'package.json', lines: ['+ left-pad 1.3.0 (devDependencies)'] },
    ]);

    const [pr] = world.pulls();
    expect(pr).toMatchObject({ draft: true });
    const body = pr!.body;
    expect(body).toContain(SELF_MODIFICATION_NOTE);
    // The flag names package.json and nothing else the change wrote.
    expect(body.split('\n\n').find((section) => section.startsWith('> [!IMPORTANT]'))).toBe(
      "> [!IMPORTANT]\n> **This change touches booty's workflows or configuration**, which decide how booty is built, checked and run:\n> - `package.json`",
    );
    expect(body).toContain(
      '| `npm run lint` | ✅ passed | ❌ passed on the base commit and exited 1 after the change |',
    );
    expect(body).toContain('| `npm run typecheck` | ✅ passed | ✅ passed |');
  });
});

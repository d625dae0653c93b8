import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { BootyError } from '../errors.js';
import { git } from './eval-git.js';
import type { EvalTask } from './task-format.js';

// A task's repository on the local forge: its base commit becomes the default branch of a
// repository there, as if the team's repository were on GitHub. A directory of plain files (a
// built-in snapshot) is committed as it is, with fixed names and dates; a git repository or URL is
// fetched at its base commit. The task's own install and test commands, when it gives them, go on
// top as the repository's .github/booty.yml, as a team would configure booty.

export const EVAL_OWNER = 'eval';
export const DEFAULT_BRANCH = 'main';

export interface ImportedTask {
  owner: string;
  name: string;
  /** The bare repository that is the forge's remote. */
  bare: string;
  /** The default branch's commit: the base, with the config commit when the task has one. */
  head: string;
}

export interface Forge {
  createRepo(owner: string, name: string): Promise<{ bareDir: string }>;
}

export async function importTask(task: EvalTask, forge: Forge): Promise<ImportedTask> {
  const name = task.id;
  const { bareDir: bare } = await forge.createRepo(EVAL_OWNER, name);
  const setup = (reason: string) =>
    new BootyError('BOOTY_E_EVAL_TASK_SETUP', { task: task.id, origin: task.origin, reason });
  let base: string;
  try {
    base = isPlainDirectory(task.repo)
      ? await commitDirectory(bare, task)
      : await fetchBase(bare, task.repo, task.baseCommit);
  } catch (err) {
    throw setup(`its repository ${task.repo} could not be brought in: ${(err as Error).message}`);
  }
  const head = await withConfig(bare, base, task);
  await git(['update-ref', `refs/heads/${DEFAULT_BRANCH}`, head], { gitDir: bare });
  return { owner: EVAL_OWNER, name, bare, head };
}

const isPlainDirectory = (repo: string) =>
  fs.existsSync(repo) && fs.statSync(repo).isDirectory() && !isGitRepository(repo);

const isGitRepository = (dir: string) =>
  fs.existsSync(path.join(dir, '.git')) || fs.existsSync(path.join(dir, 'HEAD'));

/** A snapshot's files as one commit, the same bytes on every run. */
async function commitDirectory(bare: string, task: EvalTask): Promise<string> {
  const index = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'booty-eval-index-')), 'index');
  try {
    const env = { GIT_INDEX_FILE: index };
    await git(['--work-tree', task.repo, 'add', '--all', '.'], { gitDir: bare, env, cwd: task.repo });
    const tree = (await git(['write-tree'], { gitDir: bare, env })).trim();
    const upstream = task.baseCommit ? ` (upstream ${task.baseCommit})` : '';
    const message = `${task.source?.repo ?? task.id} before the fix${upstream}`;
    return (await git(['commit-tree', tree, '-m', message], { gitDir: bare })).trim();
  } finally {
    fs.rmSync(path.dirname(index), { recursive: true, force: true });
  }
}

/** The base commit from a git repository or URL; its tip when the task names none. */
async function fetchBase(bare: string, repo: string, commit: string | null): Promise<string> {
  const tmp = 'refs/eval-import';
  try {
    if (commit && commit.length === 40) {
      // Servers that allow it (GitHub does) send just that commit's history.
      await git(['fetch', '--quiet', '--no-tags', repo, `${commit}:${tmp}/base`], { gitDir: bare }).catch(
        () => git(['fetch', '--quiet', '--no-tags', repo, `+refs/*:${tmp}/*`], { gitDir: bare }),
      );
    } else {
      await git(
        ['fetch', '--quiet', '--no-tags', repo, `+HEAD:${tmp}/HEAD`, `+refs/heads/*:${tmp}/heads/*`],
        {
          gitDir: bare,
        },
      );
    }
    const want = commit ? `${commit}^{commit}` : `${tmp}/HEAD^{commit}`;
    return (
      await git(['rev-parse', '--verify', '--quiet', want], { gitDir: bare }).catch(() => {
        throw new Error(`it has no commit ${commit}`);
      })
    ).trim();
  } finally {
    const refs = (await git(['for-each-ref', '--format=%(refname)', tmp], { gitDir: bare })).split('\n');
    for (const ref of refs.filter(Boolean)) await git(['update-ref', '-d', ref], { gitDir: bare });
  }
}

/** The task's commands as the repository's booty.yml, committed on the base; the base when none. */
async function withConfig(bare: string, base: string, task: EvalTask): Promise<string> {
  if (task.test === null && task.install === undefined) return base;
  const config: Record<string, unknown> = {};
  if (task.test !== null) config.test = { command: task.test };
  if (task.install !== undefined) config.install = task.install === null ? null : { command: task.install };
  const blob = (
    await git(['hash-object', '-w', '--stdin'], { gitDir: bare, input: stringify(config) })
  ).trim();
  const index = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'booty-eval-index-')), 'index');
  try {
    const env = { GIT_INDEX_FILE: index };
    await git(['read-tree', base], { gitDir: bare, env });
    await git(['update-index', '--add', '--cacheinfo', `100644,${blob},.github/booty.yml`], {
      gitDir: bare,
      env,
    });
    const tree = (await git(['write-tree'], { gitDir: bare, env })).trim();
    return (
      await git(['commit-tree', tree, '-p', base, '-m', 'booty.yml for the eval'], { gitDir: bare })
    ).trim();
  } finally {
    fs.rmSync(path.dirname(index), { recursive: true, force: true });
  }
}

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { BootyError, isBootyError } from '../errors.js';
import type { FileChange, Prepared, RepoConfig } from '../events/effect-results.js';
import type { RepoRef } from '../events/job-events.js';
import type { Logger } from '../log.js';
import type { EffectImpl } from '../machines/effect-contract.js';
import { type EffectInput, type JobContext, mergeChanges } from '../machines/job-context.js';
import { classifyApplied } from '../refine/failure-class.js';
import { readInstallRecord } from '../sandbox/install-record.js';
import { writeChanges } from './apply-changes.js';
import { branchHome, fetchFork } from './branch-home.js';
import type { Author } from './commit-build.js';
import { baseEntries, commitAndPush } from './commit-push.js';
import { type ConfigRef, type RemoteFile, resolveConfigChain } from './config-extends.js';
import { batchObjects, filesAt, type GitAuth, git, readObjects, treeNames } from './git.js';
import { readInstructions } from './instruction-files.js';
import {
  type CloneMetadata,
  cloneJob,
  fetchBranch,
  headOf,
  makeSpare,
  moveToBranch,
  readMetadata,
} from './job-clone.js';
import { syncMirror } from './mirror-cache.js';
import { checkChanges, checkPathSyntax } from './path-policy.js';
import { configPathsOf, resolveConfig } from './repo-config.js';
import { pushRound, type Round } from './round-push.js';
import { selfModificationConfig } from './self-modification.js';
import { isTestFile } from './test-files.js';
import { cleanUntracked, isKept, untrackedBesides } from './untracked.js';
import { jobHomePath, jobPath, mirrorPath, sparePath } from './workspace-layout.js';

// The effects that touch the target repository's files and git: prepare a job's clone, rebuild
// it from the log when it is gone, apply the model's changes through the path policy, commit and
// push the job's branch, and start and push each follow-up round on the PR's branch.

export interface WorkspaceOptions {
  /** The workdir (BOOTY_WORKDIR): mirrors/ and jobs/ live under it. */
  root: string;
  /** The clone URL, without credentials, e.g. https://github.com/<owner>/<name>.git. */
  remoteUrl: (repo: RepoRef) => string;
  /** Credentials for git over HTTPS (a token as the password), or null for none. */
  credentials?: (job: JobContext) => Promise<GitAuth | null>;
  author: Author;
  maxFileBytes?: number;
  /** Check out a spare clone per repository ahead of its next job (default true). */
  spares?: boolean;
  log?: Pick<Logger, 'info' | 'warn'>;
}

export type PrepareResult = Omit<Prepared, 'at' | 'comments'>;

export function createWorkspace(options: WorkspaceOptions) {
  const { root } = options;
  const auth = (job: JobContext) => options.credentials?.(job) ?? Promise.resolve(null);
  const exists = (p: string) =>
    stat(p).then(
      () => true,
      () => false,
    );

  /** Files at a commit, read with one git process: each path maps to its text, or null. */
  async function show(
    dir: string,
    rev: string,
    files: readonly string[],
  ): Promise<Map<string, string | null>> {
    const objects = await readObjects(
      dir,
      files.map((f) => `${rev}:${f}`),
    );
    return new Map(files.map((f) => [f, objects.get(`${rev}:${f}`)?.toString('utf8') ?? null]));
  }
  /** A reader for files at a commit: those named up front come from one read, any other on demand. */
  async function readerAt(dir: string, rev: string, prefetch: readonly string[]) {
    const known = await show(dir, rev, prefetch);
    return async (file: string) =>
      known.has(file) ? known.get(file)! : ((await show(dir, rev, [file])).get(file) ?? null);
  }

  const refills = new Map<string, Promise<void>>();
  /** Aborts spare clones under way, at shutdown. */
  const stopping = new AbortController();
  /** Jobs whose tree this process made exactly base + changes (by fingerprint), with nothing run since. */
  const cleanAs = new Map<string, string>();
  // The base is in it: a round moves the base, with no change logged on either side.
  const fingerprint = (baseSha: string, changes: readonly FileChange[]) =>
    createHash('sha256')
      .update(JSON.stringify([baseSha, changes]))
      .digest('hex');

  /**
   * Makes the job's clone from a freshly synced mirror. `alongside` runs on the mirror while the
   * clone is made and checked out, for reads that need only the objects.
   */
  async function clone<T>(
    job: JobContext,
    at: CloneAt | undefined,
    signal?: AbortSignal,
    alongside?: (mirror: string) => Promise<T>,
  ): Promise<[CloneMetadata, T | null]> {
    const credentials = await auth(job);
    const url = options.remoteUrl(job.repo);
    // The repository is downloaded once, into its mirror (made on its first job, fetched on every
    // later one); the job's clone copies the mirror on disk. A first job that also cloned from the
    // remote, beside the mirror, had the remote pack the repository twice.
    const mirror = await syncMirror({ root, repo: job.repo, url, auth: credentials, signal });
    const spare = sparePath(root, job.repo);
    await refills.get(spare); // a spare half made is not worth a second clone beside it
    const [meta, beside] = await Promise.all([
      cloneJob({
        dir: jobPath(root, job.jobId),
        spare,
        mirror,
        url,
        branch: job.branch,
        auth: credentials,
        signal,
        at,
      }),
      alongside ? alongside(mirror).catch(() => null) : null,
    ]);
    if (options.spares !== false && !refills.has(spare)) {
      // Off the job's path: the next job on this repository starts from a checked-out tree.
      const refill = makeSpare(spare, { mirror, url, auth: credentials, signal: stopping.signal })
        .catch((err: unknown) =>
          options.log?.warn({ repo: job.repo, err: (err as Error).message }, 'spare clone failed'),
        )
        .finally(() => refills.delete(spare));
      refills.set(spare, refill);
    }
    return [meta, beside];
  }
  type CloneAt = { baseSha: string; defaultBranch: string };

  /** What the repository config is made from, read at a commit by one git process. */
  async function configFiles(gitDir: string, baseSha: string, forge: JobContext['repo']['forge']) {
    const paths = configPathsOf(forge);
    const wanted = [...paths, 'pyproject.toml'];
    const objects = await batchObjects(gitDir, [
      `${baseSha}^{tree}`,
      ...wanted.map((p) => `${baseSha}:${p}`),
    ]);
    const tree = objects.get(`${baseSha}^{tree}`);
    if (tree?.type !== 'tree') {
      throw new BootyError('BOOTY_E_GIT_FAILED', { op: 'cat-file', reason: `no tree for commit ${baseSha}` });
    }
    const text = (p: string) => {
      const o = objects.get(`${baseSha}:${p}`);
      return o?.type === 'blob' ? o.bytes.toString('utf8') : null;
    };
    const rootFiles = treeNames(tree.bytes, baseSha.length / 2);
    const found = paths.find((p) => text(p) !== null);
    return {
      baseSha,
      rootFiles,
      file: found ? { path: found, text: text(found)! } : null,
      pyproject: rootFiles.includes('pyproject.toml') ? text('pyproject.toml') : null,
    };
  }

  /**
   * A file on another repository's default branch (the organization's `.github`, an `_extends`
   * base), read through that repository's mirror with the job's credentials. A repository git
   * cannot find, or may not read, is `no-repo`, as GitHub answers both the same.
   */
  async function readRemoteFile(job: JobContext, ref: ConfigRef, signal?: AbortSignal): Promise<RemoteFile> {
    const repo = { forge: job.repo.forge, owner: ref.owner, name: ref.name };
    let mirror: string;
    try {
      mirror = await syncMirror({ root, repo, url: options.remoteUrl(repo), auth: await auth(job), signal });
    } catch (err) {
      if (isBootyError(err) && /not found|does not exist|not a git repository/i.test(err.message))
        return { kind: 'no-repo' };
      throw err;
    }
    const blob = (await batchObjects(mirror, [`HEAD:${ref.path}`])).get(`HEAD:${ref.path}`);
    return blob?.type === 'blob' ? { kind: 'file', text: blob.bytes.toString('utf8') } : { kind: 'no-file' };
  }

  /** The repository's settings with every base they extend, or its organization's when it has none. */
  const configChain = (job: JobContext, own: { path: string; text: string } | null, signal?: AbortSignal) =>
    resolveConfigChain({ repo: job.repo, own, read: (ref) => readRemoteFile(job, ref, signal) });

  /**
   * The clone moved to booty.yml's baseBranch, when it names one other than the default branch.
   * A clone already moved says so in its metadata (its branch is the base branch).
   */
  async function onBaseBranch(dir: string, meta: CloneMetadata, config: RepoConfig): Promise<CloneMetadata> {
    const wanted = config.baseBranch;
    if (!wanted || wanted === meta.defaultBranch) return meta;
    const moved = await moveToBranch(dir, meta, wanted);
    if (!moved) {
      throw new BootyError('BOOTY_E_BASE_BRANCH_MISSING', {
        path: config.path ?? 'booty.yml',
        branch: wanted,
        defaultBranch: meta.defaultBranch,
      });
    }
    return moved;
  }

  /**
   * The job's clone, made (or reused) at the head of the default branch, and its config, read
   * there; then moved to the config's baseBranch, if it names another, which the job builds on.
   */
  async function prepare(input: EffectInput, { signal }: { signal: AbortSignal }): Promise<PrepareResult> {
    const { job } = input;
    const dir = jobPath(root, job.jobId);
    const existing = await readMetadata(dir);
    // A new clone's base is the mirror's head: its config is read there while the clone is made,
    // with any other repository's it builds on.
    const [meta, early] = existing
      ? [existing, null]
      : await clone(job, undefined, signal, async (mirror) => {
          const { baseSha } = await headOf(mirror, 'HEAD');
          // The file list too, for the model's first step: read now, beside the checkout.
          const [files] = await Promise.all([
            configFiles(mirror, baseSha, job.repo.forge),
            filesAt(mirror, baseSha),
          ]);
          return { ...files, chain: await configChain(job, files.file, signal) };
        });
    // Read from the default branch's commit, never from the work tree the job's changes go into. A
    // read that failed beside the checkout is made again here, where its error fails the step.
    const configSha = meta.configSha ?? meta.baseSha;
    const files =
      early?.baseSha === configSha
        ? early
        : await configFiles(dir, configSha, job.repo.forge).then(async (f) => ({
            ...f,
            chain: await configChain(job, f.file, signal),
          }));
    const resolved = resolveConfig({
      ...files,
      file: files.chain,
      defaultMaxAttempts: job.settings.maxAttempts,
    });
    const config = job.settings.selfModification ? selfModificationConfig(resolved) : resolved;
    // The repository's instructions for agents, from the default branch like its config.
    const instructions = await readInstructions(dir, configSha);
    const base = await onBaseBranch(dir, meta, config);
    // Just checked out (or moved), nothing run in it.
    if (!existing || base !== meta) cleanAs.set(job.jobId, fingerprint(base.baseSha, []));
    options.log?.info(
      { jobId: job.jobId, baseSha: base.baseSha, branch: base.defaultBranch, source: config.source },
      'workspace ready',
    );
    return {
      baseSha: base.baseSha,
      defaultBranch: base.defaultBranch,
      branch: base.branch,
      config,
      ...(instructions.length ? { instructions } : {}),
    };
  }

  /**
   * The job's workspace directory. A resumed job whose clone is gone gets it back exactly: a clone
   * at the recorded base commit with the recorded changes written again; the model is not asked.
   */
  async function ensure(job: JobContext, signal?: AbortSignal): Promise<string> {
    const dir = jobPath(root, job.jobId);
    if (await readMetadata(dir)) return dir;
    if (!job.workspace) {
      throw new BootyError('BOOTY_E_WORKSPACE_LOST', {
        jobId: job.jobId,
        reason: 'the job was never prepared',
      });
    }
    if (await exists(dir)) await rm(dir, { recursive: true, force: true }); // a damaged clone
    options.log?.warn({ jobId: job.jobId, baseSha: job.workspace.baseSha }, 'rebuilding a lost workspace');
    await clone(job, job.workspace, signal);
    await writeLogged(dir, job);
    return dir;
  }

  const applyChanges: EffectImpl<'applyChanges'> = async (input, { signal }) => {
    const { job } = input;
    const proposal = job.proposal?.changes ?? [];
    // The policy's checks read the tree (symlinks), and the changes go on top of it: start clean.
    const dir = await resetTree(job, signal);
    const baseSha = job.workspace!.baseSha;
    const { accepted, rejected } = await checkChanges({
      dir,
      changes: proposal,
      protectedPaths: job.config?.protectedPaths ?? [],
      maxFileBytes: options.maxFileBytes,
      readBase: await readerAt(
        dir,
        baseSha,
        proposal.map((c) => c.path),
      ),
    });
    // No claim on the tree while it is written: a write that fails halfway leaves it unknown.
    cleanAs.delete(job.jobId);
    await writeChanges(dir, accepted);
    cleanAs.set(job.jobId, fingerprint(baseSha, mergeChanges(job.changes, accepted)));
    const addedTests = accepted.filter((c) => c.content !== null && isTestFile(c.path)).map((c) => c.path);
    const failureClass = classifyApplied(accepted, rejected);
    return {
      applied: accepted,
      rejected,
      addedTests: addedTests.sort(),
      ...(failureClass && { failureClass }),
    };
  };

  /**
   * Puts the work tree back to the base commit plus the logged changes: tracked files restored,
   * untracked ones a test left removed (ignored build output stays, and so does what the install
   * step wrote, ignored or not), and every change written again. Skipped when this process knows
   * the tree is already exactly that, with nothing run in it since.
   */
  async function resetTree(job: JobContext, signal?: AbortSignal): Promise<string> {
    const dir = await ensure(job, signal);
    const want = fingerprint(job.workspace!.baseSha, job.changes);
    if (cleanAs.get(job.jobId) === want) return dir;
    // What the last install wrote into the tree and left untracked: kept.
    const installed = (await readInstallRecord(dir))?.tree ?? [];
    // With no changes yet the tree must be the base commit, which `git status` can vouch for in
    // one process: HEAD there, nothing modified, nothing untracked but the install's (ignored
    // output stays, as with clean).
    if (job.changes.length === 0 && (await atCommit(dir, job.workspace!.baseSha, installed))) {
      cleanAs.set(job.jobId, want);
      return dir;
    }
    cleanAs.delete(job.jobId);
    await git(['reset', '--hard', '--quiet', job.workspace!.baseSha], { cwd: dir, op: 'reset' });
    await cleanUntracked(dir, installed);
    await writeLogged(dir, job);
    return dir;
  }

  /** Writes the logged changes onto a tree at the base commit: it is then exactly what the log says. */
  async function writeLogged(dir: string, job: JobContext) {
    // The recorded changes passed the policy when they were applied; the path rules run again
    // because a path is about to be written.
    await writeChanges(
      dir,
      job.changes.filter((c) => !('rule' in checkPathSyntax(c.path))),
    );
    cleanAs.set(job.jobId, fingerprint(job.workspace!.baseSha, job.changes));
  }

  /** HEAD at `sha`, nothing modified, and nothing untracked but what the install wrote. */
  async function atCommit(dir: string, sha: string, kept: readonly string[]): Promise<boolean> {
    const status = await git(['status', '-z', '--porcelain=v2', '--branch', '--untracked-files=normal'], {
      cwd: dir,
      op: 'status',
    });
    const entries = status.split('\0').filter(Boolean);
    return (
      entries.includes(`# branch.oid ${sha}`) &&
      entries.every((e) => e.startsWith('# ') || (e.startsWith('? ') && isKept(e.slice(2), kept)))
    );
  }

  /**
   * The job's tree, exactly the base commit plus the logged changes, for a run of the repository's
   * code: from here on the tree counts as touched, and the next use puts it back first. So no
   * test's edit outlives its run, and a run resumed after a crash starts from a clean tree.
   */
  async function treeForRun(job: JobContext, signal?: AbortSignal): Promise<string> {
    const dir = await resetTree(job, signal);
    cleanAs.delete(job.jobId);
    return dir;
  }

  /**
   * What is untracked in the job's tree besides the change's own files: right after the install
   * step, what it wrote, which every later reset keeps.
   */
  async function untrackedOutputs(job: JobContext): Promise<string[]> {
    return untrackedBesides(
      jobPath(root, job.jobId),
      job.changes.map((c) => c.path),
    );
  }

  /**
   * Reads files as they are at the job's base commit (null where one does not exist). The files
   * named up front are read at once; name every file the caller will ask for.
   */
  async function readBase(job: JobContext, prefetch: readonly string[]) {
    return readerAt(await ensure(job), job.workspace!.baseSha, prefetch);
  }

  /** Files at any commit the job's clone holds (a review comment's): null for a file or commit it lacks. */
  async function readAt(job: JobContext, rev: string, files: readonly string[]) {
    return show(await ensure(job), rev, files);
  }

  /** The job's sandbox HOME, made on first use; it lives as long as the job's clone. */
  async function home(job: Pick<JobContext, 'jobId'>): Promise<string> {
    const dir = jobHomePath(root, job.jobId);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /**
   * The repository's mirror holding the job's base commit, with the base's entries at the changed
   * paths. The commit needs only that; the push negotiates with the remote itself. So the mirror
   * is synced only when it is gone or lacks the base.
   */
  async function mirrorWithBase(job: JobContext, signal?: AbortSignal) {
    if (!job.workspace)
      throw new BootyError('BOOTY_E_GIT_FAILED', { op: 'commit', reason: 'the job has no workspace yet' });
    const credentials = await auth(job);
    const url = options.remoteUrl(job.repo);
    let mirror = mirrorPath(root, job.repo);
    const entries = () => (fs.existsSync(mirror) ? baseEntries(mirror, job) : Promise.resolve(null));
    let base = await entries();
    if (!base) {
      mirror = await syncMirror({ root, repo: job.repo, url, auth: credentials, signal });
      base = await entries();
    }
    const home = branchHome(job, options.remoteUrl);
    if (!base && home.fork) {
      // A fork's commits are in the fork: its branch holds the base, as booty only adds on top.
      await fetchFork({ mirror, url: home.url, auth: credentials, signal }, job.branch, home.ref);
      base = await entries();
    }
    if (!base) {
      // The base commit left the remote's branches: the job's clone still has it.
      const dir = await ensure(job, signal);
      await git(
        [
          'fetch',
          '--quiet',
          '--no-write-fetch-head',
          dir,
          `+refs/heads/${job.branch}:refs/booty/base/${job.jobId}`,
        ],
        {
          cwd: mirror,
          op: 'fetch',
        },
      );
      base = await entries();
    }
    if (!base) {
      throw new BootyError('BOOTY_E_WORKSPACE_LOST', {
        jobId: job.jobId,
        reason: `the base commit ${job.workspace.baseSha} is in neither the mirror nor the job's clone`,
      });
    }
    return { mirror, base, url, credentials, home };
  }

  async function commitAndPushJob(input: Pick<EffectInput, 'job'>, ctx: { signal?: AbortSignal } = {}) {
    const { job } = input;
    const { mirror, base, url, credentials } = await mirrorWithBase(job, ctx.signal);
    return commitAndPush({
      mirror,
      job,
      base,
      author: options.author,
      url,
      auth: credentials,
      signal: ctx.signal,
    });
  }

  /**
   * A follow-up round's start: the mirror synced with the remote, so the PR branch's head is read
   * as it is there (with any commit a human pushed), and the job's clone holding that commit, the
   * round's base. A clone that is gone is made again at that head with no changes, which is where
   * the round starts. A fork's branch is fetched from the fork into the mirror (branch-home.ts).
   */
  async function syncRound(job: JobContext, signal?: AbortSignal): Promise<{ headSha: string }> {
    const url = options.remoteUrl(job.repo);
    const credentials = await auth(job);
    const mirror = await syncMirror({ root, repo: job.repo, url, auth: credentials, signal });
    const home = branchHome(job, options.remoteUrl);
    if (home.fork)
      await fetchFork({ mirror, url: home.url, auth: credentials, signal }, job.branch, home.ref);
    const headSha = await git(['rev-parse', '--verify', '--quiet', `${home.ref}^{commit}`], {
      cwd: mirror,
      op: 'rev-parse',
    }).catch(() => '');
    if (!headSha) throw new BootyError('BOOTY_E_BRANCH_MISSING', { branch: job.branch });
    const atHead = job.workspace && { ...job.workspace, baseSha: headSha };
    const dir = await ensure({ ...job, workspace: atHead, changes: [] }, signal);
    await fetchBranch(dir, { mirror, url }, home.ref, headSha);
    return { headSha };
  }

  /**
   * Pushes a round's changes as one commit on the round's base (the job's workspace base, the PR
   * head at its sync), never dropping a commit someone else pushed (round-push.ts), to the branch
   * where it lives (a fork's, when the pull request is from one).
   */
  async function pushRoundJob(job: JobContext, round: Round, signal?: AbortSignal) {
    const { mirror, base, credentials, home } = await mirrorWithBase(job, signal);
    return pushRound({
      mirror,
      job,
      base,
      round,
      author: options.author,
      ref: home.ref,
      remote: { mirror, url: home.url, auth: credentials, signal },
    });
  }

  /** Deletes a finished job's clone and HOME; the mirror stays for the next job. */
  async function dispose(jobId: string): Promise<void> {
    cleanAs.delete(jobId);
    await rm(jobPath(root, jobId), { recursive: true, force: true });
    await rm(jobHomePath(root, jobId), { recursive: true, force: true });
  }

  /** Resolves when no spare clone is being made (for shutdown, tests and benchmarks). */
  async function idle(): Promise<void> {
    while (refills.size > 0) await Promise.all(refills.values());
  }

  return {
    prepare,
    idle,
    /** Shutdown: spare clones under way are abandoned (a spare is made again by the next job). */
    stop: () => stopping.abort(),
    ensure,
    applyChanges,
    commitAndPush: commitAndPushJob,
    syncRound,
    pushRound: pushRoundJob,
    treeForRun,
    untrackedOutputs,
    readBase,
    readAt,
    home,
    dispose,
    paths: {
      mirror: (repo: RepoRef) => mirrorPath(root, repo),
      job: (jobId: string) => jobPath(root, jobId),
    },
  };
}

export type Workspace = ReturnType<typeof createWorkspace>;

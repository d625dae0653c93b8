import { createHash } from 'node:crypto';
import { BootyError } from '../errors.js';
import type { FileChange } from '../events/effect-results.js';
import { git, hasCommit } from './git.js';

// A commit built from the log, not from a work tree: each recorded change is written as a blob
// into the repository's mirror (which no test ever touched), placed in a tree read from the parent
// commit, and checked by hash. Whatever a test did to the files on disk, what is committed is what
// was logged. Author, committer, date and parent are fixed by the caller, so a re-run after a crash
// makes the same sha.

export interface Author {
  name: string;
  email: string;
}

/** The blob entries at some paths in a commit's tree: what the mode of a rewritten file keeps. */
export type BaseEntries = Map<string, { mode: string; sha: string }>;

export interface CommitSpec {
  /** The repository's bare mirror, holding the parent commit. */
  mirror: string;
  /** Where fast-import records the commit: a ref keeps it from gc until it is pushed. */
  ref: string;
  parent: string;
  /** The parent's entries at the changed paths (entriesAt). */
  base: BaseEntries;
  changes: readonly FileChange[];
  author: Author;
  /** Author and committer date, in seconds since the epoch. */
  at: number;
  message: string;
}

/** git's id for a blob: what `git hash-object` prints for this content. */
export function blobSha(content: string): string {
  const body = Buffer.from(content);
  return createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

/**
 * Writes the changes onto the parent as one commit, with one `git fast-import`: it stores each
 * change's bytes as a blob (no filters, whatever .gitattributes says), builds the trees, commits,
 * and then lists every changed path in the new commit, so the same process that wrote the commit
 * proves it holds the log's content. Returns the commit's sha.
 */
export async function buildCommit(spec: CommitSpec): Promise<string> {
  const { changes, base } = spec;
  if (changes.every((c) => base.get(c.path)?.sha === (c.content === null ? undefined : blobSha(c.content)))) {
    throw new BootyError('BOOTY_E_GIT_FAILED', {
      op: 'commit',
      reason: 'the logged changes leave the tree as it was',
    });
  }
  const who = `${identity(spec.author.name)} <${identity(spec.author.email)}> ${Math.floor(spec.at)} +0000`;
  const stream = [
    `commit ${spec.ref}`,
    'mark :1',
    `author ${who}`,
    `committer ${who}`,
    data(spec.message),
    `from ${spec.parent}`,
    // A file keeps its base mode (an executable stays one); a new file is a plain one.
    ...changes.map((c) =>
      c.content === null
        ? `D ${quoted(c.path)}`
        : `M ${base.get(c.path)?.mode === '100755' ? '100755' : '100644'} inline ${quoted(c.path)}\n${data(c.content)}`,
    ),
    '',
    'get-mark :1',
    ...changes.map((c) => `ls :1 ${quoted(c.path)}`),
    'done',
    '',
  ].join('\n');
  const out = await git(['fast-import', '--quiet', '--force', '--done'], {
    cwd: spec.mirror,
    op: 'commit',
    input: stream,
  });
  const [sha, ...listed] = out.split('\n');
  changes.forEach((change, i) => {
    const actual = /^\d+ blob ([0-9a-f]{40,64})\t/.exec(listed[i] ?? '')?.[1] ?? null;
    const expected = change.content === null ? null : blobSha(change.content);
    if (actual !== expected) {
      throw new BootyError('BOOTY_E_GIT_FAILED', {
        op: 'commit',
        reason: `${change.path} in the commit (${actual ?? 'absent'}) is not what the log recorded (${expected ?? 'absent'})`,
      });
    }
  });
  return sha!;
}

/**
 * The entries at these paths in a commit, read from the mirror; null when the mirror does not
 * hold the commit (it left the remote's branches, or the mirror is new).
 */
export async function entriesAt(mirror: string, sha: string, paths: string[]): Promise<BaseEntries | null> {
  try {
    return await treeEntries(mirror, sha, paths);
  } catch (err) {
    if (!(await hasCommit(mirror, sha))) return null;
    throw err;
  }
}

/** The blob entries at these paths in a commit's tree, read with one ls-tree. */
async function treeEntries(mirror: string, sha: string, paths: string[]): Promise<BaseEntries> {
  // Literal: a path like `docs/*.md` names that one file, not a glob.
  const listed = await git(['ls-tree', '-z', '--full-tree', sha, '--', ...paths], {
    cwd: mirror,
    op: 'ls-tree',
    env: { GIT_LITERAL_PATHSPECS: '1' },
  });
  const entries: BaseEntries = new Map();
  for (const line of listed.split('\0')) {
    const m = /^(\d+) blob ([0-9a-f]{40,64})\t(.*)$/s.exec(line);
    if (m) entries.set(m[3]!, { mode: m[1]!, sha: m[2]! });
  }
  return entries;
}

/** fast-import's `data`: a byte count, then the bytes. */
const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}`;

/** A path in C-style quotes, which fast-import takes for any path, whatever it holds. */
function quoted(p: string): string {
  let out = '"';
  for (const ch of p) {
    const code = ch.charCodeAt(0);
    if (ch === '\\' || ch === '"') out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A name or email as git writes it: no angle brackets or line breaks. */
const identity = (text: string) => text.replace(/[<>\n]/g, '').trim();

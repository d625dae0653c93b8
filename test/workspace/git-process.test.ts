import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BootyError } from '../../src/errors.js';
import { blobSha } from '../../src/workspace/commit-build.js';
import { git, gitBytes } from '../../src/workspace/git.js';
import { makeRemote, tempDir } from '../fixtures/git-fixtures.js';

// booty's git runs in a helper process, not as a child of booty's own: what a caller sees must be
// exactly what git did, its bytes, its input, its failures, and a stop when asked.

let base: string;
beforeEach(() => {
  base = tempDir();
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

/** A git that runs until it is stopped (or for 15 minutes): the credential cache's daemon. */
const daemon = (dir: string) => ['credential-cache--daemon', path.join(dir, 'socket')];

describe('git processes', () => {
  it('hands back every byte git wrote, and gives git its input', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 * 1024 }, (_, i) => (i * 7) % 256));
    const text = bytes.toString('latin1');
    const remote = makeRemote(base, { 'a.txt': 'a\n' });
    const sha = await git(['hash-object', '-w', '--stdin'], { cwd: remote.bare, op: 'hash', input: text });
    expect(sha).toBe(blobSha(text));
    const out = await gitBytes(['cat-file', 'blob', sha], { cwd: remote.bare, op: 'cat-file' });
    expect(out.equals(Buffer.from(text))).toBe(true);
  });

  it('runs many at once, each answered by its own output', async () => {
    const remote = makeRemote(base, { 'a.txt': 'a\n' });
    const inputs = Array.from({ length: 12 }, (_, i) => `content ${i}\n`);
    const shas = await Promise.all(
      inputs.map((input) => git(['hash-object', '--stdin'], { cwd: remote.bare, op: 'hash', input })),
    );
    expect(shas).toEqual(inputs.map(blobSha));
  });

  it('fails with git’s own message and the stable code', async () => {
    const remote = makeRemote(base, { 'a.txt': 'a\n' });
    const err = await git(['rev-parse', '--verify', 'no-such-ref'], {
      cwd: remote.bare,
      op: 'rev-parse',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BootyError);
    expect((err as BootyError).code).toBe('BOOTY_E_GIT_FAILED');
    expect((err as Error).message).toMatch(/rev-parse/);
  });

  it('stops a git whose output passes 100 MB instead of holding it, and says so', async () => {
    const remote = makeRemote(base, { 'a.txt': 'a\n' });
    const big = path.join(base, 'big.bin');
    fs.writeFileSync(big, Buffer.alloc(100 * 1024 * 1024 + 1)); // zeros: a small object, a large blob
    const sha = await git(['hash-object', '-w', big], { cwd: remote.bare, op: 'hash' });
    const err = await gitBytes(['cat-file', 'blob', sha], { cwd: remote.bare, op: 'cat-file' }).catch(
      (e: unknown) => e,
    );
    expect((err as BootyError).code).toBe('BOOTY_E_GIT_FAILED');
    expect((err as Error).message).toContain(`git wrote more than ${100 * 1024 * 1024} bytes of output`);
    // One byte less is read whole.
    fs.writeFileSync(big, Buffer.alloc(100 * 1024 * 1024));
    const fits = await git(['hash-object', '-w', big], { cwd: remote.bare, op: 'hash' });
    const out = await gitBytes(['cat-file', 'blob', fits], { cwd: remote.bare, op: 'cat-file' });
    expect(out.length).toBe(100 * 1024 * 1024);
  });

  it('stops a git that outlives its timeout, and says so', async () => {
    const started = Date.now();
    const err = await git(daemon(base), { cwd: base, op: 'cache', timeoutMs: 300 }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/git timed out/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops a git when its job is aborted, before or after it started', async () => {
    const late = new AbortController();
    const running = git(daemon(base), { cwd: base, op: 'cache', signal: late.signal }).catch(
      (e: unknown) => e,
    );
    setTimeout(() => late.abort(), 200);
    expect(((await running) as Error).message).toMatch(/git aborted/);

    const early = AbortSignal.abort();
    const err = await git(daemon(base), { cwd: base, op: 'cache', signal: early }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/git aborted/);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RepoRef } from '../../src/events/job-events.js';
import { withLock } from '../../src/workspace/keyed-lock.js';
import { syncMirror } from '../../src/workspace/mirror-cache.js';
import { mirrorPath } from '../../src/workspace/workspace-layout.js';
import { makeRemote, sh, tempDir } from '../fixtures/git-fixtures.js';

// Jobs that start together on one repository ask for its mirror to be synced together: the asks
// that wait behind one another share one fetch, and a job that stops lets go of its ask alone.

const repo: RepoRef = { forge: 'github', owner: 'acme', name: 'widgets' };
let base: string;
let root: string;
let mirror: string;
beforeEach(() => {
  base = tempDir();
  root = path.join(base, 'work');
  mirror = mirrorPath(root, repo);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

/** Holds the mirror's lock, as a sync or push under way does, until the function it gives is called. */
const holdMirror = () =>
  new Promise<() => void>((held) => {
    void withLock(mirror, () => new Promise<void>((release) => held(release)));
  });

/** A job's ask for the mirror of `url`, with no credentials, stoppable when given a signal. */
const ask = (url: string, signal?: AbortSignal) => syncMirror({ root, repo, url, auth: null, signal });

describe('syncing a mirror', () => {
  it('gives the asks that wait behind one another one fetch, made after the last of them asked', async () => {
    const remote = makeRemote(base, { 'a.txt': 'one\n' });
    await ask(remote.url);
    const release = await holdMirror();
    const first = ask(remote.url);
    const fetched = remote.push({ 'a.txt': 'two\n' });
    // Between the first ask's turn and any later one, the remote moves on: a second fetch would show it.
    const between = withLock(mirror, async () => remote.push({ 'a.txt': 'three\n' }));
    const second = ask(remote.url);
    release();
    expect(await Promise.all([first, second])).toEqual([mirror, mirror]);
    await between;
    expect(sh(mirror, 'rev-parse', 'refs/heads/main')).toBe(fetched);
  });

  it('fetches on their own for asks with other credentials: those say what a job may read', async () => {
    const remote = makeRemote(base, { 'a.txt': 'one\n' });
    await ask(remote.url);
    const release = await holdMirror();
    const first = syncMirror({ root, repo, url: remote.url, auth: { username: 'x', password: 'one' } });
    const between = withLock(mirror, async () => remote.push({ 'a.txt': 'two\n' }));
    const second = syncMirror({ root, repo, url: remote.url, auth: { username: 'x', password: 'two' } });
    release();
    await Promise.all([first, between, second]);
    expect(sh(mirror, 'rev-parse', 'refs/heads/main')).toBe(remote.branchSha('main'));
  });

  it('fetches again for an ask made once the previous fetch has started', async () => {
    const remote = makeRemote(base, { 'a.txt': 'one\n' });
    await ask(remote.url);
    const started = ask(remote.url);
    await new Promise((resolve) => setImmediate(resolve)); // it holds the lock now
    const newer = remote.push({ 'a.txt': 'two\n' });
    await Promise.all([started, ask(remote.url)]);
    expect(sh(mirror, 'rev-parse', 'refs/heads/main')).toBe(newer);
  });

  it('lets a job that stops go at once, and still syncs for the others', async () => {
    const remote = makeRemote(base, { 'a.txt': 'one\n' });
    await ask(remote.url);
    const newer = remote.push({ 'a.txt': 'two\n' });
    const release = await holdMirror();
    const stopping = new AbortController();
    const stopped = ask(remote.url, stopping.signal);
    const staying = ask(remote.url, new AbortController().signal);
    stopping.abort();
    await expect(stopped).rejects.toMatchObject({ code: 'BOOTY_E_GIT_REMOTE' });
    release();
    expect(await staying).toBe(mirror);
    expect(sh(mirror, 'rev-parse', 'refs/heads/main')).toBe(newer);
  });

  it('does not fetch once every job that asked has stopped', async () => {
    const remote = makeRemote(base, { 'a.txt': 'one\n' });
    await ask(remote.url);
    remote.push({ 'a.txt': 'two\n' });
    const release = await holdMirror();
    const asks = [new AbortController(), new AbortController()].map((stop) => ({
      stop,
      failed: ask(remote.url, stop.signal).catch((e) => e),
    }));
    for (const { stop } of asks) stop.abort();
    release();
    for (const { failed } of asks) expect(await failed).toMatchObject({ code: 'BOOTY_E_GIT_REMOTE' });
    await withLock(mirror, async () => {}); // the stopped sync has let go of the mirror
    expect(sh(mirror, 'rev-parse', 'refs/heads/main')).toBe(remote.head);
  });

  it('syncs for an ask made after every earlier ask stopped, while their sync still waits its turn', async () => {
    const remote = makeRemote(base, { 'a.txt': 'one\n' });
    await ask(remote.url);
    const newer = remote.push({ 'a.txt': 'two\n' });
    const release = await holdMirror();
    const stop = new AbortController();
    const stopped = ask(remote.url, stop.signal).catch((e) => e);
    stop.abort();
    const later = ask(remote.url, new AbortController().signal);
    release();
    expect(await stopped).toMatchObject({ code: 'BOOTY_E_GIT_REMOTE' });
    expect(await later).toBe(mirror);
    expect(sh(mirror, 'rev-parse', 'refs/heads/main')).toBe(newer);
  });
});

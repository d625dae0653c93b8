import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homeManifest, inBuildCache, settleHome } from '../../src/sandbox/home-state.js';
import { tempDir } from '../fixtures/git-fixtures.js';

// The job's HOME between runs: what the install made stays, whatever a run added or changed goes.

let home = '';
beforeEach(() => {
  home = tempDir('booty-home-');
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const write = (rel: string, text = 'x') => {
  fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
  fs.writeFileSync(path.join(home, rel), text);
};
const files = () =>
  (fs.readdirSync(home, { recursive: true }) as string[])
    .filter((f) => fs.lstatSync(path.join(home, f)).isFile())
    .sort();

describe("the job's HOME", () => {
  it('given what an install made, when a run adds settings, a program and cache entries, then only those go', async () => {
    write('.venv/bin/python');
    write('.npm/_cacache/index-v5/aa/bb', 'index');
    write('go/pkg/mod/cache/download/x.zip');
    const made = await homeManifest(home);

    write('.npmrc', 'registry=http://evil.test/\n');
    write('.config/pip/pip.conf', '[global]\nindex-url = http://evil.test/\n');
    write('.cargo/config.toml', '[source.crates-io]\nreplace-with = "evil"\n');
    write('.local/bin/node', '#!/bin/sh\necho ok\n');
    write('.npm/_cacache/index-v5/cc/dd', 'a run of npx');
    fs.symlinkSync('/etc', path.join(home, '.venv/etc'));

    const settled = await settleHome(home, made);
    expect(settled).toEqual({
      removed: ['.cargo', '.config', '.local', '.npm/_cacache/index-v5/cc', '.npmrc', '.venv/etc'],
      damaged: false,
    });
    expect(files()).toEqual([
      '.npm/_cacache/index-v5/aa/bb',
      '.venv/bin/python',
      'go/pkg/mod/cache/download/x.zip',
    ]);
  });

  it('given a run that rewrote or removed what the install made, then that goes too and the install must run again', async () => {
    write('.venv/bin/python');
    write('.venv/lib/site.py', 'original');
    write('.cache/units', 'ready');
    const made = await homeManifest(home);

    fs.writeFileSync(path.join(home, '.venv/lib/site.py'), 'planted');
    expect(await settleHome(home, made)).toEqual({ removed: ['.venv/lib/site.py'], damaged: true });
    expect(files()).toEqual(['.cache/units', '.venv/bin/python']);

    const again = await homeManifest(home);
    fs.rmSync(path.join(home, '.cache/units'));
    expect(await settleHome(home, again)).toEqual({ removed: [], damaged: true });

    const third = await homeManifest(home);
    fs.chmodSync(path.join(home, '.venv/bin'), 0o777);
    expect(await settleHome(home, third)).toEqual({ removed: ['.venv/bin'], damaged: true });
  });

  it('given no install, then a run leaves nothing behind, even a directory it made unreadable', async () => {
    write('.npmrc');
    write('locked/inner/file');
    fs.chmodSync(path.join(home, 'locked/inner'), 0);
    fs.chmodSync(path.join(home, 'locked'), 0);
    expect(await settleHome(home, {})).toEqual({ removed: ['.npmrc', 'locked'], damaged: false });
    expect(fs.readdirSync(home)).toEqual([]);
  });

  it("given Go's build cache the baseline filled, then a later run keeps its entries as they were, and loses what it added or rewrote, with no install to run again", async () => {
    write('.cache/go-build/0a/0a11-d', 'net.a');
    write('.cache/go-build/README');
    write('.cache/pip/http/x', 'not a build cache');
    write('.npmrc');
    const caches = await homeManifest(home, inBuildCache);
    expect(Object.keys(caches).sort()).toEqual([
      '.cache',
      '.cache/go-build',
      '.cache/go-build/0a',
      '.cache/go-build/0a/0a11-d',
      '.cache/go-build/README',
    ]);

    // A later run adds an entry and rewrites one in place.
    write('.cache/go-build/0b/0b22-d', 'a run of the change');
    fs.writeFileSync(path.join(home, '.cache/go-build/README'), 'planted');
    expect(await settleHome(home, {}, caches)).toEqual({
      removed: ['.cache/go-build/0b', '.cache/go-build/README', '.cache/pip', '.npmrc'],
      damaged: false,
    });
    expect(files()).toEqual(['.cache/go-build/0a/0a11-d']);
  });
});

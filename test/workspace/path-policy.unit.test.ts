import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileChange } from '../../src/events/effect-results.js';
import { checkChanges, type Rule } from '../../src/workspace/path-policy.js';
import { tempDir } from '../fixtures/git-fixtures.js';

// Given a work tree with real symlinks and a base commit's files, when the model proposes one
// change, then the policy accepts it or rejects it by the named rule.

const base: Record<string, string> = {
  'src/math.js': 'exports.add = (a, b) => a + b;\n',
  'test/math.test.js': "test('adds', () => {});\ntest('subtracts', () => {});\n",
  'tests/test_math.py': 'def test_adds():\n    assert True\n\ndef test_subtracts():\n    assert True\n',
  'calc_test.go': 'package calc\n\nfunc TestAdd(t *testing.T) {}\n',
  'tests/math.rs': '#[test]\nfn adds() {}\n',
  'README.md': '# sample\n',
};

let parent: string;
let dir: string;
beforeAll(() => {
  parent = tempDir('booty-policy-');
  dir = path.join(parent, 'ws');
  const outside = path.join(parent, 'outside');
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  for (const [rel, content] of Object.entries(base)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  fs.symlinkSync(outside, path.join(dir, 'escape')); // a directory link leading out
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'secret-link')); // a file link leading out
  fs.symlinkSync('../..', path.join(dir, 'src', 'up')); // relative link leading out
  fs.symlinkSync('src', path.join(dir, 'lib')); // a directory link that stays inside
  fs.symlinkSync('math.js', path.join(dir, 'src', 'alias.js')); // a file link that stays inside
});
afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

const check = (change: FileChange, protectedPaths: string[] = []) =>
  checkChanges({
    dir,
    changes: [change],
    protectedPaths,
    maxFileBytes: 1_000,
    readBase: async (p) => base[p] ?? null,
  });

const rows: { name: string; change: FileChange; rule: Rule | null; protectedPaths?: string[] }[] = [
  { name: 'a new source file', change: { path: 'src/sum.js', content: 'x' }, rule: null },
  { name: 'a new file in new directories', change: { path: 'src/deep/er/sum.js', content: 'x' }, rule: null },
  { name: 'a deletion of a source file', change: { path: 'README.md', content: null }, rule: null },
  { name: 'a path with ./ and //', change: { path: './src//sum.js', content: 'x' }, rule: null },
  {
    // A test may have left the link; the change goes to the real path, src/new.js.
    name: 'a write through a directory link that stays inside',
    change: { path: 'lib/new.js', content: 'x' },
    rule: 'path-symlink',
  },
  { name: 'an empty path', change: { path: '', content: 'x' }, rule: 'path-invalid' },
  { name: 'the repository root', change: { path: './', content: 'x' }, rule: 'path-invalid' },
  { name: 'an absolute path', change: { path: '/etc/passwd', content: 'x' }, rule: 'path-absolute' },
  {
    name: 'a Windows absolute path',
    change: { path: 'C:\\Windows\\x', content: 'x' },
    rule: 'path-absolute',
  },
  { name: 'a leading ..', change: { path: '../outside/x', content: 'x' }, rule: 'path-traversal' },
  { name: 'a .. in the middle', change: { path: 'src/../../x', content: 'x' }, rule: 'path-traversal' },
  { name: 'a backslash ..', change: { path: 'src\\..\\..\\x', content: 'x' }, rule: 'path-traversal' },
  { name: '.git/config', change: { path: '.git/config', content: 'x' }, rule: 'path-git' },
  {
    name: 'a nested .git',
    change: { path: 'vendor/lib/.git/hooks/pre-commit', content: 'x' },
    rule: 'path-git',
  },
  { name: '.GIT in another case', change: { path: '.GIT/config', content: 'x' }, rule: 'path-git' },
  { name: 'a workflow', change: { path: '.github/workflows/ci.yml', content: 'x' }, rule: 'path-protected' },
  { name: '.env', change: { path: '.env', content: 'x' }, rule: 'path-protected' },
  { name: 'a nested .env.local', change: { path: 'app/.env.local', content: 'x' }, rule: 'path-protected' },
  { name: 'a .pem key', change: { path: 'certs/server.pem', content: 'x' }, rule: 'path-protected' },
  {
    name: "booty's .github/booty.yml",
    change: { path: '.github/booty.yml', content: 'x' },
    rule: 'path-protected',
  },
  { name: "booty's .booty.yml", change: { path: '.booty.yml', content: 'x' }, rule: 'path-protected' },
  {
    name: "a path the repository's config protects",
    change: { path: 'db/migrations/001.sql', content: 'x' },
    rule: 'path-protected',
    protectedPaths: ['db/migrations/**'],
  },
  {
    name: 'a file over the size limit',
    change: { path: 'src/big.js', content: 'x'.repeat(1_001) },
    rule: 'file-too-large',
  },
  {
    name: 'a multi-byte file over the limit in bytes',
    change: { path: 'src/big.js', content: 'é'.repeat(501) },
    rule: 'file-too-large',
  },
  {
    name: 'a write through a directory link leading out',
    change: { path: 'escape/x.txt', content: 'x' },
    rule: 'path-symlink',
  },
  {
    name: 'a write to a file link leading out',
    change: { path: 'secret-link', content: 'x' },
    rule: 'path-symlink',
  },
  {
    name: 'a deletion of a file link leading out',
    change: { path: 'secret-link', content: null },
    rule: 'path-symlink',
  },
  {
    name: 'a write through a relative link leading out',
    change: { path: 'src/up/x.txt', content: 'x' },
    rule: 'path-symlink',
  },
  {
    name: 'a write to a file link that stays inside',
    change: { path: 'src/alias.js', content: 'x' },
    rule: 'path-symlink',
  },
  { name: 'a file under a file', change: { path: 'src/math.js/x.js', content: 'x' }, rule: 'path-not-file' },
  { name: 'a directory', change: { path: 'src', content: 'x' }, rule: 'path-not-file' },
  {
    name: 'deleting an existing JS test',
    change: { path: 'test/math.test.js', content: null },
    rule: 'test-deleted',
  },
  {
    name: 'deleting an existing pytest file',
    change: { path: 'tests/test_math.py', content: null },
    rule: 'test-deleted',
  },
  {
    name: 'it.skip on an existing test',
    change: {
      path: 'test/math.test.js',
      content: "test('adds', () => {});\ntest.skip('subtracts', () => {});\n",
    },
    rule: 'test-skipped',
  },
  {
    name: 'xit on an existing test',
    change: { path: 'test/math.test.js', content: "test('adds', () => {});\nxit('subtracts', () => {});\n" },
    rule: 'test-skipped',
  },
  {
    name: 'it.only, which skips the others',
    change: {
      path: 'test/math.test.js',
      content: "test.only('adds', () => {});\ntest('subtracts', () => {});\n",
    },
    rule: 'test-skipped',
  },
  {
    name: 'a node:test skip option',
    change: {
      path: 'test/math.test.js',
      content: "test('adds', () => {});\ntest('subtracts', { skip: true }, () => {});\n",
    },
    rule: 'test-skipped',
  },
  {
    name: '@pytest.mark.skip',
    change: {
      path: 'tests/test_math.py',
      content: `import pytest\n${base['tests/test_math.py']!.replace('def test_sub', '@pytest.mark.skip\ndef test_sub')}`,
    },
    rule: 'test-skipped',
  },
  {
    name: 't.Skip( in Go',
    change: {
      path: 'calc_test.go',
      content: 'package calc\n\nfunc TestAdd(t *testing.T) { t.Skip("later") }\n',
    },
    rule: 'test-skipped',
  },
  {
    name: '#[ignore] in Rust',
    change: { path: 'tests/math.rs', content: '#[test]\n#[ignore]\nfn adds() {}\n' },
    rule: 'test-skipped',
  },
  {
    name: 'fewer test cases in an existing file',
    change: { path: 'test/math.test.js', content: "test('adds', () => {});\n" },
    rule: 'test-removed',
  },
  {
    name: 'fewer pytest functions',
    change: { path: 'tests/test_math.py', content: 'def test_adds():\n    assert True\n' },
    rule: 'test-removed',
  },
  {
    name: 'a new case added to an existing test file',
    change: { path: 'test/math.test.js', content: `${base['test/math.test.js']}test('sums', () => {});\n` },
    rule: null,
  },
  {
    name: 'a new test file, skips and all (it is not an existing test)',
    change: { path: 'test/sum.test.js', content: "test.skip('later', () => {});\n" },
    rule: null,
  },
];

describe('checkChanges', () => {
  for (const row of rows) {
    it(`${row.rule ? `rejects (${row.rule})` : 'accepts'} ${row.name}`, async () => {
      const result = await check(row.change, row.protectedPaths);
      if (row.rule === null) {
        expect(result.rejected).toEqual([]);
        expect(result.accepted).toHaveLength(1);
      } else {
        expect(result.accepted).toEqual([]);
        expect(result.rejected).toHaveLength(1);
        expect(result.rejected[0]!.rule).toBe(row.rule);
        expect(result.rejected[0]!.reason.length).toBeGreaterThan(20);
      }
    });
  }

  it('normalises the accepted path', async () => {
    const result = await check({ path: './src//sum.js', content: 'x' });
    expect(result.accepted).toEqual([{ path: 'src/sum.js', content: 'x' }]);
  });

  it('says which glob protects a path, so the model can steer clear', async () => {
    const result = await check({ path: '.github/workflows/ci.yml', content: 'x' });
    expect(result.rejected[0]!.reason).toContain('`.github/workflows/**`');
  });

  it('checks every change before any is written, and keeps only the last change to a path', async () => {
    const result = await checkChanges({
      dir,
      changes: [
        { path: 'src/a.js', content: 'one' },
        { path: '.env', content: 'x' },
        { path: 'src/a.js', content: 'two' },
      ],
      protectedPaths: [],
      readBase: async () => null,
    });
    expect(result.accepted).toEqual([{ path: 'src/a.js', content: 'two' }]);
    expect(result.rejected.map((r) => r.path)).toEqual(['.env']);
    expect(fs.existsSync(path.join(dir, 'src/a.js'))).toBe(false);
  });
});

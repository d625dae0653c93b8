import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLibtest } from '../../../src/sandbox/reports/libtest.js';
import { FIXTURES, fixture, statuses } from './fixture.js';

// cargo 1.95 `cargo test --no-fail-fast` on a crate with unit tests (one in src/units.rs), an
// integration test file and a doc test; the crate's sources are kept beside the output.
const cwd = path.join(FIXTURES, 'cargo/durations');

describe('parseLibtest', () => {
  const { cases, loadErrors } = parseLibtest(fixture('cargo/test.txt'), cwd);

  it('names each test `target > path`, doc tests without their line number', () => {
    expect(statuses(cases)).toEqual([
      ['src/lib.rs > tests::parses_days', 'skipped'],
      ['src/lib.rs > tests::nested::inner', 'passed'],
      ['src/lib.rs > tests::parses_hours', 'passed'],
      ['src/lib.rs > tests::parses_minutes', 'failed'],
      ['src/lib.rs > units::tests::hour_is_3600', 'passed'],
      ['tests/it.rs > parses_from_outside', 'passed'],
      ['tests/it.rs > panics_on_unknown_unit', 'failed'],
      ['Doc-tests durations > src/lib.rs - parse', 'passed'],
    ]);
    expect(loadErrors).toEqual([]);
  });

  it('gives the fn as the name and the module file a unit test lives in', () => {
    expect(cases.map((c) => [c.name, c.file])).toEqual([
      ['parses_days', 'src/lib.rs'],
      ['inner', 'src/lib.rs'],
      ['parses_hours', 'src/lib.rs'],
      ['parses_minutes', 'src/lib.rs'],
      ['hour_is_3600', 'src/units.rs'],
      ['parses_from_outside', 'tests/it.rs'],
      ['panics_on_unknown_unit', 'tests/it.rs'],
      ['parse', 'src/lib.rs'],
    ]);
  });

  it("takes each failure's message from its `---- name stdout ----` block", () => {
    expect(cases[3]!.message).toMatch(
      /^thread 'tests::parses_minutes' \(\d+\) panicked at src\/lib.rs:27:9:\nassertion `left == right` failed: two minutes\n {2}left: 120\n right: 100\nnote: run with `RUST_BACKTRACE=1`/,
    );
    expect(cases[6]!.message).toMatch(/panicked at src\/lib.rs:12:14:\nunknown unit x\n/);
  });

  it('reports a target that does not compile as a load error at the first error location', () => {
    const broken = parseLibtest(fixture('cargo/compile-error.txt'), cwd);
    expect(broken.cases).toEqual([]);
    expect(broken.loadErrors).toHaveLength(1);
    expect(broken.loadErrors[0]!.file).toBe('tests/it.rs');
    expect(broken.loadErrors[0]!.message.split('\n').slice(0, 2)).toEqual([
      'error[E0308]: mismatched types',
      ' --> tests/it.rs:3:35',
    ]);
  });
});

describe('parseLibtest in a workspace', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'booty-cargo-ws-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('puts each member’s src/lib.rs under its own directory, told apart by the binary’s name', () => {
    for (const name of ['a', 'b']) {
      mkdirSync(path.join(root, 'crates', name, 'src'), { recursive: true });
      writeFileSync(path.join(root, 'crates', name, 'Cargo.toml'), `[package]\nname = "${name}"\n`);
      writeFileSync(path.join(root, 'crates', name, 'src/lib.rs'), '');
    }
    // What cargo 1.95 printed for a two-member workspace.
    const output = [
      '     Running unittests src/lib.rs (target/debug/deps/a-27b4390c1dca5100)',
      'test tests::it_works ... ok',
      '     Running unittests src/lib.rs (target/debug/deps/b-bb14e76e05ff24de)',
      'test tests::it_works ... FAILED',
    ].join('\n');
    expect(statuses(parseLibtest(output, root).cases)).toEqual([
      ['crates/a/src/lib.rs > tests::it_works', 'passed'],
      ['crates/b/src/lib.rs > tests::it_works', 'failed'],
    ]);
  });
});

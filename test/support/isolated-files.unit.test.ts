import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ISOLATED_FILES } from './isolated-files.js';

// The unit and system files share their workers' modules, so a module mock must be in a file that
// runs isolated: this finds every test file that mocks one.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function testFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return ['fixtures', 'repos', '.deps'].includes(entry.name) ? [] : testFiles(rel);
    return /\.test\.ts$/.test(entry.name) ? [rel] : [];
  });
}

describe('test files that mock modules', () => {
  it('are exactly the ones that run isolated', () => {
    const mocking = testFiles('test').filter((f) =>
      /\bvi\.(mock|doMock)\(/.test(fs.readFileSync(path.join(root, f), 'utf8')),
    );
    expect(mocking.sort()).toEqual([...ISOLATED_FILES].sort());
  });
});

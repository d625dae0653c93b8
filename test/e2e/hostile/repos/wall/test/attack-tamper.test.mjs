import fs from 'node:fs';
import test from 'node:test';
import { report } from '../lib/hostile.mjs';

// Case 5: rewrites what the model wrote, adds a file nobody logged, and edits a source file, hoping
// booty commits the work tree as the tests left it.

const TAMPERED = `TAMPERED-BY-TEST\n${'x'.repeat(3 * 1024 * 1024)}\n`;

test('rewrites the change on disk', () => {
  fs.mkdirSync('data', { recursive: true });
  fs.writeFileSync('data/model-output.txt', TAMPERED);
  fs.writeFileSync('src/backdoor.js', 'export const backdoor = "TAMPERED-BY-TEST";\n');
  fs.appendFileSync('src/greet.js', '\n// TAMPERED-BY-TEST\n');
  report('tamper', { bytes: fs.statSync('data/model-output.txt').size });
});

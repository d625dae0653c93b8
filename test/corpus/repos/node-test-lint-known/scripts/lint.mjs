// A small linter: every console.log under src/ is a finding, printed as path:line:col: rule.
import { readdirSync, readFileSync } from 'node:fs';

let found = 0;
for (const file of readdirSync('src')) {
  readFileSync(`src/${file}`, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const col = line.indexOf('console.log');
      if (col < 0) return;
      found++;
      console.log(`src/${file}:${i + 1}:${col + 1}: no-console  Unexpected console.log`);
    });
}
if (found) console.log(`\n${found} problem${found === 1 ? '' : 's'}`);
process.exit(found ? 1 : 0);

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The folder of booty's own package.json, found from this file upward: what ships beside the code
// (app.yml, examples/) is found from there, whether the code runs from src/ (tsx), from dist/src/
// or from the tests' compiled copy.

function find(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    const manifest = path.join(at, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === 'booty') return at;
    if (path.dirname(at) === at) throw new Error(`booty's package.json is not above ${dir}`);
  }
}

export const packageRoot = find(path.dirname(fileURLToPath(import.meta.url)));

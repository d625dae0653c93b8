import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// booty's version, as its package.json says: read from the package this file ships in (dist/
// in the package and the image, src/ in a checkout), so it never disagrees with what was
// installed.

export function bootyVersion(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'booty' && pkg.version) return pkg.version;
    }
    if (path.dirname(dir) === dir) throw new Error(`no package.json of booty above ${from}`);
  }
}

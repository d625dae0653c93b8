import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// What ships, not the sources through a loader: the benchmarks that time booty as it runs import
// the built package (dist/, which `npm run bench` builds first). The types are the sources'.

const dist = path.join(import.meta.dirname, '..', 'dist');

/** A module of the built package, by its path under dist/ (`src/log.js`). */
export function built<T>(file: string): Promise<T> {
  const at = path.join(dist, file);
  if (!fs.existsSync(at))
    throw new Error(`the benchmarks run the built package: npm run build first (${at} is missing)`);
  return import(pathToFileURL(at).href) as Promise<T>;
}

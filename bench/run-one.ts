// Runs one benchmark file in this process and writes its results, as JSON, to the file named
// second: bench/run.ts starts one process per benchmark, so none measures another's heap.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { BenchResult } from './bench-result.js';

const [file, out] = process.argv.slice(2);
if (!file || !out) throw new Error('usage: run-one.ts <bench file> <results json>');
const mod = (await import(pathToFileURL(file).href)) as { default: () => Promise<BenchResult[]> };
fs.writeFileSync(out, JSON.stringify(await mod.default()));

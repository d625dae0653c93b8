import { createHash } from 'node:crypto';
import fs from 'node:fs';

// What every attack shares: the targets the hostile end-to-end test committed beside the code
// (ports, paths, markers; a real attacker would guess them), and one line per finding on stdout,
// `HOSTILE {json}`, which the test reads back from the output booty kept. Contents are reported as
// a digest and a hex prefix, so booty's scrubber cannot hide a successful read.

const targetsFile = new URL('../hostile-targets.json', import.meta.url);

export const targets = fs.existsSync(targetsFile) ? JSON.parse(fs.readFileSync(targetsFile, 'utf8')) : {};

/** The control runs on the host with its own marker directory and process marker. */
export const markerDir = process.env.HOSTILE_MARKER_DIR ?? targets.markerDir ?? null;
export const processMarker = process.env.HOSTILE_PROCESS_MARKER ?? targets.processMarker ?? null;

export function report(kind, data) {
  console.log(`HOSTILE ${JSON.stringify({ kind, ...data })}`);
}

export const digest = (bytes) => createHash('sha256').update(bytes).digest('hex');
export const hexHead = (bytes) => Buffer.from(bytes).subarray(0, 32).toString('hex');

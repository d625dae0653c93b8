import v8 from 'node:v8';

// While `serve` starts, node loads some 600 modules, and V8 tunes itself for that burst as if it
// were the load to come. It doubles the young generation whenever a scavenge finds more survivors
// than it holds, and at start-up nearly everything survives (modules, their code, schemas) on its
// way to the old generation anyway. It optimizes node's module loader (path resolution, the
// CommonJS export scanner), which never runs hot again, on background threads whose memory then
// stays in their malloc arenas. Together that was a fifth of an idle serve's memory (18 of 96 MB).
// So V8 starts lean, and tunes itself by its own rules again once serve has load: its first
// request, or jobs resumed from their logs. Not at the listen itself: the checkpointer's thread
// (store/wal-checkpointer.ts, started with the first append since) was still starting then in one
// start of four, and V8 optimized it.
// While lean, V8 also sizes the heap for memory rather than speed (--optimize-for-size): it grows
// the old generation in smaller steps, and collects what start-up left as soon as serve goes
// quiet instead of waiting for a low allocation rate, which a loaded machine may not show for a
// minute. That was another 6 of an idle serve's 75 MB. Load gives V8 its defaults back.

let held = false;

/** Before serve's modules load (bin.ts); unless the operator gave node flags of their own for either. */
export function beginLeanStart() {
  const own = [...process.execArgv, process.env.NODE_OPTIONS ?? ''];
  if (own.some((flags) => /semi-space|optimize[-_]for[-_]size|(^|\s)--(no-)?(opt|turbofan)\b/.test(flags)))
    return;
  held = true;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  v8.setFlagsFromString('--no-turbofan');
  v8.setFlagsFromString('--optimize-for-size');
}

/** V8's own defaults again (node 20 to 24). */
export function endLeanStart() {
  if (!held) return;
  held = false;
  v8.setFlagsFromString('--semi-space-growth-factor=2');
  v8.setFlagsFromString('--turbofan');
  v8.setFlagsFromString('--no-optimize-for-size');
}

import path from 'node:path';
import { inject } from 'vitest';

// The compiled copy of a source or test file (see test/global-setup.ts), to start in a child
// process with plain `node`: `compiled('src/cli/bin.ts')`.
export const compiled = (file: string) => path.join(inject('compiled'), file.replace(/\.ts$/, '.js'));

/** A child started a hundred times or more, bundled into one file (test/global-setup.ts lists them). */
export const bundled = (file: string) =>
  path.join(inject('compiled'), 'bundled', file.replace(/\.ts$/, '.js'));

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src/store/wal-checkpointer.js';

describe('the background checkpointer', () => {
  // Its worker opens the file a moment after the store; a file deleted in between must stay
  // deleted, or the store's "deleted under it" check sees a fresh empty database instead.
  it('never creates the database file it checkpoints, and hands checkpoints back when it cannot open it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-checkpointer-'));
    const file = path.join(dir, 'gone.db');
    try {
      const handedBack = await new Promise<boolean>((resolve) => {
        startCheckpointer(file, { intervalMs: 10, onExit: () => resolve(true) });
      });
      expect(handedBack).toBe(true);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

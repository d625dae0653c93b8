// A test command runs as the leader of its own process group (spawned detached, i.e. setsid), so
// signalling the negative pid reaches its children and grandchildren too.

/** Sends a signal to every process in the group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

/** Whether any process of the group is still alive (zombies included until reaped). */
export function groupAlive(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

import { readdirSync, readFileSync } from 'node:fs';

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

/** Running (not zombie) members of a process group, read from /proc. */
function liveMembers(pgid: number): number {
  let n = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // comm may hold spaces and parens: the fields after the last ')' are fixed.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') n += 1;
    } catch {
      // The process ended while we looked.
    }
  }
  return n;
}

/**
 * Resolves once no member of the group still runs, or after `ms`. A sandbox's first process is in
 * the group: once it is gone, the kernel has killed everything else in its pid namespace too.
 */
export async function groupGone(pgid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  // One signal answers the usual case, a group already empty, without reading every process's
  // stat from /proc (hundreds of files, tens of milliseconds on booty's loop, twice a job).
  while (groupAlive(pgid) && liveMembers(pgid) > 0) {
    if (Date.now() > until) return false;
    signalGroup(pgid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

import fs from 'node:fs';

// Reads the process table from /proc, so a test can prove that nothing a command started is still
// running. Zombies do not count: in a container nobody may reap them, and they run no code.

interface Proc {
  pid: number;
  pgid: number;
  state: string;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm may hold spaces and parens: the fields after the last ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0]!, pgid: Number(fields[2]) };
  } catch {
    return null;
  }
}

export function liveInGroup(pgid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is Proc => p !== null && p.pgid === pgid && p.state !== 'Z')
    .map((p) => p.pid);
}

export function isLive(pid: number): boolean {
  const p = readProc(pid);
  return p !== null && p.state !== 'Z';
}

/** Live processes whose command line holds this marker: pids inside a pid namespace differ from the host's. */
export function liveWithArg(marker: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter((pid) => isLive(pid));
}

/** A command that sleeps for ten minutes, findable on the host by its marker. */
export const sleeper = (marker: string) => `node -e 'setTimeout(() => {}, 600000)' ${marker}`;

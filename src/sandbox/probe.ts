import { execFile } from 'node:child_process';

// Whether a containment tool works on this machine: it is installed, and the kernel lets it build
// its namespaces (user namespaces may be off, a container may forbid mounts). Asked once per
// command line: the arguments run `true` inside it.

export interface Probe {
  ok: boolean;
  reason: string;
}

const probes = new Map<string, Promise<Probe>>();

export function probe(file: string, args: string[]): Promise<Probe> {
  const key = [file, ...args].join('\0');
  let found = probes.get(key);
  if (!found) {
    // node's own execFile: `serve` probes at start, before any job needs execa loaded.
    found = new Promise<Probe>((resolve) => {
      const child = execFile(
        file,
        args,
        { timeout: 10_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } },
        (err, _stdout, stderr) => {
          if (!err) return resolve({ ok: true, reason: 'ok' });
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') return resolve({ ok: false, reason: `${file} is not installed` });
          if (typeof code !== 'number') return resolve({ ok: false, reason: String(err.message) });
          resolve({ ok: false, reason: String(stderr).split('\n')[0]?.trim() || `${file} exited ${code}` });
        },
      );
      child.stdin?.end();
    });
    probes.set(key, found);
  }
  return found;
}

import { execa } from 'execa';

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
    found = execa(file, args, {
      reject: false,
      timeout: 10_000,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      extendEnv: false,
      stdin: 'ignore',
    }).then(
      (r): Probe =>
        r.exitCode === 0
          ? { ok: true, reason: 'ok' }
          : {
              ok: false,
              reason:
                r.failed && r.exitCode === undefined
                  ? `${file} is not installed`
                  : String(r.stderr ?? '')
                      .split('\n')[0]
                      ?.trim() || `${file} exited ${r.exitCode}`,
            },
      (err: unknown): Probe => ({ ok: false, reason: String(err) }),
    );
    probes.set(key, found);
  }
  return found;
}

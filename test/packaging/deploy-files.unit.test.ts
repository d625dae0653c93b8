import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EnvSchema, loadEnv } from '../../src/env.js';

// The Dockerfile and compose file, read as Docker reads them. No Docker daemon runs where the
// tests run, so this checks what a daemon would only find out at build or start: a COPY of a file
// the context leaves out, a setting booty does not know, a worker sharing another's workspace.

const repo = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(repo, file), 'utf8');

interface Instruction {
  op: string;
  args: string;
}

/** The Dockerfile's instructions per stage, continuation lines joined and comments dropped. */
function stages(text: string): Instruction[][] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const out: Instruction[][] = [];
  for (const line of lines) {
    const [op, ...rest] = line.split(/\s+/);
    const instruction = { op: op!.toUpperCase(), args: rest.join(' ') };
    if (instruction.op === 'FROM') out.push([]);
    out.at(-1)?.push(instruction);
  }
  return out;
}

/** `KEY=value KEY2=value` pairs of an ENV instruction. */
const envNames = (args: string) => [...args.matchAll(/([A-Z_][A-Z0-9_]*)=/g)].map((m) => m[1]!);

/** Whether .dockerignore (a `*` then `!name` allow-list) sends a path to the build. */
function inContext(file: string): boolean {
  const rules = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  expect(rules[0]).toBe('*');
  const allowed = rules.slice(1).map((r) => {
    expect(r.startsWith('!')).toBe(true);
    return r.slice(1);
  });
  return allowed.some((a) => file === a || file.startsWith(`${a}/`));
}

const known = new Set([...Object.keys(EnvSchema.shape), 'NODE_ENV']);

describe('the Dockerfile', () => {
  const [build, image, ...more] = stages(read('Dockerfile'));
  const of = (stage: Instruction[], op: string) => stage.filter((i) => i.op === op);

  it('builds in one stage and ships another, without the dev dependencies', () => {
    expect(more).toEqual([]);
    expect(of(build!, 'FROM')[0]!.args).toMatch(/ AS build$/);
    expect(of(build!, 'RUN').map((r) => r.args)).toContain(
      'npm run build && npm prune --omit=dev --no-audit --no-fund',
    );
    expect(of(image!, 'FROM')[0]!.args).not.toMatch(/ AS /);
    // The image takes the built output from the build stage, never the dev toolchain.
    const fromBuild = of(image!, 'COPY').filter((c) => c.args.includes('--from=build'));
    expect(fromBuild.map((c) => c.args.split(' ').at(-2))).toEqual([
      '/src/npm-shrinkwrap.json',
      '/src/node_modules',
      '/src/dist',
    ]);
  });

  it('copies only files that exist and that .dockerignore sends to the build', () => {
    const sources = [...build!, ...image!]
      .filter((i) => (i.op === 'COPY' || i.op === 'ADD') && !i.args.includes('--from='))
      .flatMap((i) =>
        i.args
          .split(' ')
          .filter((a) => !a.startsWith('--'))
          .slice(0, -1),
      );
    expect(sources.sort()).toEqual(
      [
        'app.yml',
        'examples',
        'npm-shrinkwrap.json',
        'package.json',
        'scripts/build.mjs',
        'sim',
        'src',
      ].sort(),
    );
    for (const s of sources) {
      expect(fs.existsSync(path.join(repo, s)), s).toBe(true);
      expect(inContext(s), s).toBe(true);
    }
    // Never in the context: secrets, databases, workspaces, dependencies built for this machine.
    for (const f of ['.env', 'booty.db', '.booty', 'node_modules', 'dist', '.git', 'key.pem']) {
      expect(inContext(f), f).toBe(false);
    }
  });

  it('runs as an unprivileged user, with bubblewrap and git, and the sandbox required', () => {
    const users = of(image!, 'USER').map((u) => u.args);
    expect(users).toEqual(['node']);
    const installs = of(image!, 'RUN').find((r) => r.args.includes('apt-get install'))!.args;
    expect(installs).toMatch(/\bbubblewrap\b/);
    expect(installs).toMatch(/\bgit\b/);
    const env = Object.fromEntries(
      of(image!, 'ENV').flatMap((e) =>
        [...e.args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)].map((m) => [m[1], m[2]]),
      ),
    );
    expect(env.BOOTY_SANDBOX).toBe('required');
    // Everything booty writes lives in the one volume, which the user owns.
    expect(of(image!, 'VOLUME')[0]!.args).toBe('["/var/lib/booty"]');
    expect(env.BOOTY_WORKDIR?.startsWith('/var/lib/booty/')).toBe(true);
    expect(env.BOOTY_DB?.startsWith('/var/lib/booty/')).toBe(true);
    expect(of(image!, 'ENTRYPOINT')[0]!.args).toBe('["tini", "--", "node", "/app/dist/src/cli/bin.js"]');
    expect(of(image!, 'CMD')[0]!.args).toBe('["serve"]');
  });

  it('sets only settings booty knows, and no secret', () => {
    const names = [...build!, ...image!].filter((i) => i.op === 'ENV').flatMap((i) => envNames(i.args));
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(known.has(n), n).toBe(true);
    expect(names.filter((n) => /TOKEN|KEY|SECRET|PASSWORD/.test(n))).toEqual([]);
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<string, any>;
    volumes: Record<string, unknown>;
  };
  const workers = Object.entries(compose.services).filter(([, s]) => s.build === '.');

  it('runs PostgreSQL and two workers of this image on it, each started once the database is ready', () => {
    const db = compose.services.postgres;
    expect(db.image).toMatch(/^postgres:\d+/);
    expect(workers.map(([name]) => name)).toEqual(['worker-1', 'worker-2']);
    const { POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB } = db.environment;
    for (const [name, w] of workers) {
      const url = new URL(w.environment.BOOTY_DATABASE_URL);
      expect({ name, host: url.hostname, port: url.port, user: url.username, db: url.pathname }).toEqual({
        name,
        host: 'postgres',
        port: '5432',
        user: POSTGRES_USER,
        db: `/${POSTGRES_DB}`,
      });
      expect(url.password).toBe(POSTGRES_PASSWORD);
      expect(w.depends_on.postgres.condition).toBe('service_healthy');
    }
    expect(db.healthcheck.test.join(' ')).toContain('pg_isready');
  });

  it('gives each worker its own volume and port, and the sandbox what bubblewrap needs without privilege', () => {
    const volumes = workers.map(([, w]) => w.volumes[0] as string);
    expect(new Set(volumes).size).toBe(workers.length);
    for (const v of volumes) {
      const [name, mount] = v.split(':');
      expect(mount).toBe('/var/lib/booty');
      expect(name! in compose.volumes).toBe(true);
    }
    const ports = workers.map(([, w]) => (w.ports[0] as string).split(':')[0]);
    expect(new Set(ports).size).toBe(workers.length);
    for (const [, w] of workers) {
      expect(w.privileged).toBeUndefined();
      expect(w.cap_add).toBeUndefined();
      expect(w.security_opt).toEqual([
        'seccomp=./compose-seccomp.json',
        'apparmor=unconfined',
        'systempaths=unconfined',
      ]);
    }
  });

  it("keeps a seccomp filter on the container: the sandbox's deny list less what bubblewrap needs to build it", () => {
    const profile = JSON.parse(read('compose-seccomp.json')) as {
      defaultAction: string;
      archMap: { architecture: string; subArchitectures: string[] }[];
      syscalls: { names: string[]; action: string; errnoRet: number }[];
    };
    const source = read('src/sandbox/seccomp/filter.c');
    const list = /DENIED\[\] = \{([\s\S]*?)\};/.exec(source)![1]!.replace(/\/\/.*$/gm, '');
    const sandboxDenies = [...list.matchAll(/"(\w+)"/g)].map((m) => m[1]!);
    const bubblewrapNeeds = ['mount', 'umount2', 'pivot_root', 'unshare'];
    expect(bubblewrapNeeds.every((n) => sandboxDenies.includes(n))).toBe(true);
    expect(profile.defaultAction).toBe('SCMP_ACT_ALLOW');
    expect(profile.archMap.map((a) => [a.architecture, ...a.subArchitectures])).toEqual([
      ['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86', 'SCMP_ARCH_X32'],
      ['SCMP_ARCH_AARCH64', 'SCMP_ARCH_ARM'],
    ]);
    // clone is left open (bubblewrap's namespaces); clone3 answers ENOSYS, as in the sandbox.
    expect(profile.syscalls).toEqual([
      {
        names: sandboxDenies.filter((n) => !bubblewrapNeeds.includes(n)),
        action: 'SCMP_ACT_ERRNO',
        errnoRet: 1,
      },
      { names: ['clone3'], action: 'SCMP_ACT_ERRNO', errnoRet: 38 },
    ]);
  });

  it("sets settings booty accepts as they are: a worker starts with the team's secrets added", () => {
    for (const [, w] of workers) {
      for (const n of Object.keys(w.environment)) expect(known.has(n), n).toBe(true);
      const env = loadEnv(
        {
          ...w.environment,
          GITHUB_WEBHOOK_SECRET: 'shh',
          GITHUB_TOKEN: `ghp_${'a'.repeat(36)}`,
          ANTHROPIC_API_KEY: 'sk-ant-test',
        },
        { server: true },
      );
      expect(env.BOOTY_DATABASE_URL).toBe('postgres://booty:booty@postgres:5432/booty');
      expect(env.BOOTY_SANDBOX).toBe('required');
    }
  });

  it("waits longer for a worker to stop than booty's shutdown grace, so SIGTERM never races a SIGKILL", () => {
    for (const [name, w] of workers) {
      const grace = loadEnv({ ...w.environment, GITHUB_WEBHOOK_SECRET: 'shh' }).BOOTY_SHUTDOWN_GRACE_MS;
      const seconds = /^(\d+)s$/.exec(String(w.stop_grace_period))?.[1];
      expect({ name, seconds }).toEqual({ name, seconds: expect.stringMatching(/^\d+$/) });
      expect(Number(seconds) * 1000).toBeGreaterThan(grace);
    }
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EnvSchema, loadEnv } from '../../src/env.js';
import { FILE_SECRETS } from '../../src/env-sources.js';
import { tempDir } from '../support/job-harness.js';

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

/** booty's settings, and the two standard variables it reads: NODE_ENV, and XDG_CACHE_HOME for its cache folder. */
const known = new Set([
  ...Object.keys(EnvSchema.shape),
  ...FILE_SECRETS.map((n) => `${n}_FILE`),
  'NODE_ENV',
  'XDG_CACHE_HOME',
]);

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
        'eval',
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
    expect(env.XDG_CACHE_HOME?.startsWith('/var/lib/booty/')).toBe(true);
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
    secrets: Record<string, { file: string }>;
    volumes: Record<string, unknown>;
  };
  const workers = Object.entries(compose.services).filter(([name]) => name.startsWith('worker-'));
  const { postgres: db, migrate, proxy } = compose.services;
  /** The secret a `/run/secrets/<name>` path names. */
  const secretOf = (file: string) => /^\/run\/secrets\/([\w-]+)$/.exec(file)?.[1];

  it('runs PostgreSQL, a migration job as its owner, and two workers of this image started after it', () => {
    expect(db.image).toMatch(/^postgres:\d+/);
    expect(workers.map(([name]) => name)).toEqual(['worker-1', 'worker-2']);
    const { POSTGRES_USER, POSTGRES_DB, POSTGRES_PASSWORD_FILE } = db.environment;
    expect(db.healthcheck.test.join(' ')).toContain('pg_isready');
    // The migration job: this image's `booty migrate`, as the owner, with the owner's password file.
    expect([migrate.build, migrate.command, migrate.restart]).toEqual(['.', ['migrate'], 'no']);
    const owner = new URL(migrate.environment.BOOTY_DATABASE_URL);
    expect([owner.hostname, owner.username, owner.password, owner.pathname]).toEqual([
      'postgres',
      POSTGRES_USER,
      '',
      `/${POSTGRES_DB}`,
    ]);
    expect(migrate.environment.BOOTY_DATABASE_PASSWORD_FILE).toBe(POSTGRES_PASSWORD_FILE);
    expect(migrate.depends_on.postgres.condition).toBe('service_healthy');
    for (const [name, w] of workers) {
      expect([name, w.build, w.depends_on.migrate.condition]).toEqual([
        name,
        '.',
        'service_completed_successfully',
      ]);
    }
  });

  it('connects the workers as a role that may not change the schema, made from the one password file', () => {
    const script = read('deploy/postgres/worker-role.sh');
    const sql = read('deploy/postgres/worker-role.sql');
    const role = /-v worker=(\w+)/.exec(script)![1];
    const passwordFile = /-v password="\$\(cat ([^)]+)\)"/.exec(script)![1]!;
    expect(db.volumes).toContain(
      './deploy/postgres/worker-role.sh:/docker-entrypoint-initdb.d/10-worker-role.sh:ro',
    );
    expect(db.volumes).toContain('./deploy/postgres/worker-role.sql:/etc/booty/worker-role.sql:ro');
    expect(script).toContain('-f /etc/booty/worker-role.sql');
    expect(sql).toContain('CREATE ROLE :"worker" LOGIN PASSWORD :\'password\';');
    expect(sql).not.toMatch(/GRANT (ALL|CREATE)/i);
    for (const [name, w] of workers) {
      const url = new URL(w.environment.BOOTY_DATABASE_URL);
      expect({
        name,
        host: url.hostname,
        port: url.port,
        user: url.username,
        password: url.password,
      }).toEqual({
        name,
        host: 'postgres',
        port: '5432',
        user: role,
        password: '',
      });
      expect(url.username).not.toBe(db.environment.POSTGRES_USER);
      expect(w.environment.BOOTY_DATABASE_PASSWORD_FILE).toBe(passwordFile);
    }
  });

  it('holds no password or key: every secret is a file under ./secrets, mounted where the settings say', () => {
    const text = read('compose.yaml');
    expect(text).not.toMatch(/postgres(ql)?:\/\/[^/\s@]*:[^/\s@]*@/);
    expect(text).not.toMatch(
      /^\s*(POSTGRES_PASSWORD|GITHUB_TOKEN|GITHUB_WEBHOOK_SECRET|ANTHROPIC_API_KEY):/m,
    );
    for (const [name, service] of Object.entries(compose.services)) {
      const files = Object.entries(service.environment ?? {}).filter(([k]) => k.endsWith('_FILE'));
      for (const [key, file] of files) {
        const secret = secretOf(file as string);
        expect([name, key, secret !== undefined && service.secrets.includes(secret)]).toEqual([
          name,
          key,
          true,
        ]);
      }
    }
    for (const [name, { file }] of Object.entries(compose.secrets)) {
      expect(file).toBe(`./secrets/${name}`);
      expect(inContext(file.slice(2))).toBe(false);
    }
    const ignored = read('.gitignore').split('\n');
    expect(ignored).toContain('secrets/*');
  });

  it('starts a worker from its settings and the secret files as mounted: every secret is read from its file', () => {
    const mounted = tempDir('booty-secrets-');
    for (const [name, w] of workers) {
      for (const n of Object.keys(w.environment)) expect([name, known.has(n)]).toEqual([name, true]);
      // The secrets as Docker mounts them: one file each, with the newline an editor leaves.
      const values: Record<string, string> = {
        booty_worker_password: 'w0rker pass/word',
        github_webhook_secret: 'shh',
        github_token: `ghp_${'a'.repeat(36)}`,
        anthropic_api_key: 'sk-ant-test',
      };
      const environment = Object.fromEntries(
        Object.entries(w.environment as Record<string, string>).map(([k, v]) => {
          const secret = secretOf(v);
          if (!secret) return [k, v];
          const file = path.join(mounted, secret);
          fs.writeFileSync(file, `${values[secret]}\n`);
          return [k, file];
        }),
      );
      const env = loadEnv(environment, { server: true });
      expect(env.BOOTY_DATABASE_URL).toBe('postgres://booty_worker:w0rker%20pass%2Fword@postgres:5432/booty');
      expect([env.GITHUB_WEBHOOK_SECRET, env.GITHUB_TOKEN, env.ANTHROPIC_API_KEY]).toEqual([
        'shh',
        `ghp_${'a'.repeat(36)}`,
        'sk-ant-test',
      ]);
      expect(env.BOOTY_SANDBOX).toBe('required');
    }
  });

  it("bounds what a worker's tests may take, and outlasts its shutdown before the kill", () => {
    const seconds = (d: string) => {
      const m = /^(\d+)(s|m)$/.exec(d)!;
      return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
    };
    // What booty may take to stop: the drain (where this booty has one) and the shutdown grace.
    const bounds = ['BOOTY_DRAIN_MS', 'BOOTY_SHUTDOWN_GRACE_MS']
      .filter((n) => n in EnvSchema.shape)
      .map((n) => (EnvSchema.shape as Record<string, any>)[n].parse(undefined) as number);
    const stopping = bounds.reduce((a, b) => a + b, 0) / 1000;
    for (const [name, w] of workers) {
      const { cpus, memory, pids } = w.deploy.resources.limits;
      expect([name, Number(cpus) > 0, /^\d+[mg]$/.test(memory), pids > 0 && pids <= 4096]).toEqual([
        name,
        true,
        true,
        true,
      ]);
      expect(seconds(w.stop_grace_period)).toBeGreaterThan(stopping + 5);
    }
  });

  it('puts one address in front of the workers: a proxy that reaches each of them, and the only port published', () => {
    expect(proxy.image).toMatch(/^caddy:\d+$/);
    expect(proxy.ports).toEqual(['3000:8080']);
    expect(proxy.volumes).toEqual(['./deploy/Caddyfile:/etc/caddy/Caddyfile:ro']);
    const caddyfile = read('deploy/Caddyfile');
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddyfile)![1]!.trim().split(/\s+/);
    expect(upstreams).toEqual(workers.map(([name]) => `${name}:3000`));
    expect(caddyfile).toContain('health_uri /readyz');
    expect(caddyfile.split('\n')).toContain(':8080 {');
    for (const [name, service] of Object.entries(compose.services)) {
      if (name !== 'proxy') expect([name, service.ports]).toEqual([name, undefined]);
    }
  });

  it('gives each worker its own volume, and the sandbox what bubblewrap needs without privilege', () => {
    const volumes = workers.map(([, w]) => w.volumes[0] as string);
    expect(new Set(volumes).size).toBe(workers.length);
    for (const v of volumes) {
      const [name, mount] = v.split(':');
      expect(mount).toBe('/var/lib/booty');
      expect(name! in compose.volumes).toBe(true);
    }
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
});

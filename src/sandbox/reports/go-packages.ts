import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// From a Go import path to the files that declare its tests: the module path in go.mod maps
// `example.com/calc/sub` to the directory `sub`, and the `_test.go` file there that declares
// `func TestName(` is the test's file.

export class GoPackages {
  private readonly module: string | null;
  private readonly declared = new Map<string, Map<string, string>>();

  constructor(private readonly cwd: string) {
    this.module = readModulePath(cwd);
  }

  /** The package's directory relative to the work tree ('.' for the module root), or null. */
  dir(pkg: string): string | null {
    if (!this.module) return null;
    if (pkg === this.module) return '.';
    return pkg.startsWith(`${this.module}/`) ? pkg.slice(this.module.length + 1) : null;
  }

  /** The `_test.go` file that declares `func <name>(`, repository-relative. */
  fileOf(pkg: string, name: string): string | null {
    const dir = this.dir(pkg);
    if (dir === null) return null;
    if (!this.declared.has(dir)) this.declared.set(dir, scanTests(this.cwd, dir));
    return this.declared.get(dir)!.get(name) ?? null;
  }
}

function readModulePath(cwd: string): string | null {
  try {
    return /^module\s+(\S+)/m.exec(readFileSync(path.join(cwd, 'go.mod'), 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

function scanTests(cwd: string, dir: string): Map<string, string> {
  const out = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(path.join(cwd, dir)).filter((n) => n.endsWith('_test.go'));
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    const source = readFileSync(path.join(cwd, dir, name), 'utf8');
    for (const m of source.matchAll(/^func\s+(\w+)\s*\(/gm)) {
      const file = dir === '.' ? name : `${dir}/${name}`;
      if (!out.has(m[1]!)) out.set(m[1]!, file);
    }
  }
  return out;
}

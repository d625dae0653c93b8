import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedOperations } from '../sim/github/github-sim-operations.js';

// Extracts the operations the GitHub simulator serves from GitHub's published OpenAPI description
// (@octokit/openapi, generated/api.github.com.json) into a small committed JSON file. The package
// unpacks to hundreds of megabytes, so it is not a dependency: this script packs it into a temp
// directory and reads that one file, or takes a path to an already extracted copy.
//
//   npx tsx scripts/extract-openapi-subset.ts [path/to/api.github.com.json]

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '../src/simulators/openapi/api.github.com.subset.json');

type Json = any;

function fetchDescription(): { file: string; version: string; dir?: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'octokit-openapi-'));
  const packed = execFileSync('npm', ['pack', '@octokit/openapi', '--silent'], { cwd: dir, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()!;
  execFileSync('tar', ['xzf', packed, 'package/package.json', 'package/generated/api.github.com.json'], {
    cwd: dir,
  });
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'package/package.json'), 'utf8')).version;
  return { file: path.join(dir, 'package/generated/api.github.com.json'), version, dir };
}

function packageVersionNear(file: string): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(file), '../package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/** Drops prose and examples: the simulator validates with the schemas, not the docs. */
function strip(node: Json): Json {
  if (Array.isArray(node)) return node.map(strip);
  if (node === null || typeof node !== 'object') return node;
  const result: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (['description', 'example', 'examples', 'x-github', 'x-multi-segment'].includes(key)) continue;
    result[key] = strip(value);
  }
  return result;
}

/** The schema of each success reply (2xx, 3xx), null for one without a JSON body (a 204, a 302). */
function replySchemas(doc: Json, responses: Json): Record<string, Json> {
  const replies: Record<string, Json> = {};
  for (const [status, given] of Object.entries(responses ?? {}) as [string, Json][]) {
    if (!/^[23]/.test(status)) continue;
    const reply = given.$ref ? doc.components.responses[String(given.$ref).split('/').pop()!] : given;
    const schema = reply?.content?.['application/json']?.schema;
    replies[status] = schema ? strip(schema) : null;
  }
  return replies;
}

function resolveParameter(doc: Json, param: Json): Json {
  if (!param.$ref) return param;
  const name = String(param.$ref).replace('#/components/parameters/', '');
  return doc.components.parameters[name];
}

/** Every components/schemas entry reachable from a node, followed transitively. */
function collectSchemaRefs(doc: Json, node: Json, seen: Set<string>) {
  if (Array.isArray(node)) for (const item of node) collectSchemaRefs(doc, item, seen);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!seen.has(name)) {
          seen.add(name);
          collectSchemaRefs(doc, doc.components.schemas[name], seen);
        }
      } else collectSchemaRefs(doc, value, seen);
    }
  }
}

function main() {
  const given = process.argv[2];
  const { file, version, dir } = given
    ? { file: given, version: packageVersionNear(given) }
    : fetchDescription();
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  const operations: Record<string, Json> = {};
  const refs = new Set<string>();
  for (const id of servedOperations) {
    const found = Object.entries(doc.paths as Record<string, Json>).flatMap(([p, item]) =>
      Object.entries(item as Record<string, Json>)
        .filter(([, op]) => op?.operationId === id)
        .map(([method, op]) => ({ path: p, method, op })),
    )[0];
    if (!found) throw new Error(`operation ${id} is not in ${file}`);
    const parameters = (found.op.parameters ?? []).map((p: Json) => strip(resolveParameter(doc, p)));
    const body = found.op.requestBody?.content?.['application/json'];
    const requestBody = body
      ? { required: found.op.requestBody.required === true, schema: strip(body.schema) }
      : null;
    const replies = replySchemas(doc, found.op.responses);
    collectSchemaRefs(doc, requestBody, refs);
    // Reply schemas let the tests hold the simulator's answers to GitHub's shapes.
    collectSchemaRefs(doc, replies, refs);
    operations[id] = {
      method: found.method,
      path: found.path,
      summary: found.op.summary,
      documentationUrl: found.op.externalDocs?.url ?? null,
      parameters,
      requestBody,
      responses: Object.keys(found.op.responses ?? {}),
      replies,
    };
  }
  const schemas = Object.fromEntries(
    [...refs].sort().map((name) => [name, strip(doc.components.schemas[name])]),
  );
  const subset = {
    source: {
      package: '@octokit/openapi',
      packageVersion: version,
      file: 'generated/api.github.com.json',
      openapi: doc.openapi,
      apiVersion: doc.info.version,
    },
    operations,
    components: { schemas },
  };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(subset, null, 2)}\n`);
  console.log(
    `wrote ${Object.keys(operations).length} operations, ${refs.size} schemas to ${path.relative(process.cwd(), out)}`,
  );
}

main();

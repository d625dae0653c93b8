import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { OperationId } from './github-sim-operations.js';
import subset from './openapi/api.github.com.subset.json' with { type: 'json' };

// Checks every request against GitHub's published OpenAPI description (the committed subset of the
// operations served), and answers a bad one the way GitHub does: 422 "Invalid request" naming the
// field, or 400 for a body that is not JSON.

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: object;
}

interface Operation {
  method: string;
  path: string;
  documentationUrl: string | null;
  parameters: Parameter[];
  requestBody: { required: boolean; schema: object } | null;
  /** The schema of each documented success reply; null for one without a JSON body. */
  replies: Record<string, object | null>;
}

export interface Route {
  operationId: OperationId;
  method: string;
  pattern: RegExp;
  names: string[];
  documentationUrl: string;
}

export type Invalid = { status: 400 | 404 | 422; body: Record<string, unknown> };

const operations = subset.operations as unknown as Record<OperationId, Operation>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * OpenAPI 3.0's `nullable` as JSON Schema means it: null joins an enum (`start_side: null`), and a
 * nullable schema without a type (an allOf, a $ref) becomes "that, or null", which Ajv cannot say.
 */
function nullableAsJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableAsJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = nullableAsJsonSchema(v);
  if (out.nullable !== true) return out;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (out.type !== undefined) return out;
  const { nullable: _, ...rest } = out;
  return { anyOf: [rest, { type: 'null' }] };
}

const described = nullableAsJsonSchema(subset) as object;

function makeAjv(coerceTypes: boolean, allErrors = false) {
  const ajv = new Ajv({ strict: false, allErrors, coerceTypes, validateSchema: false });
  addFormats(ajv);
  // GitHub's own formats (repo.nwo, …) have no checker: accept them.
  for (const format of formatsIn(subset)) if (!ajv.formats[format]) ajv.addFormat(format, true);
  ajv.addSchema(described, 'github');
  return ajv;
}

function formatsIn(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) formatsIn(n, found);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'format' && typeof v === 'string') found.add(v);
      else formatsIn(v, found);
    }
  }
  return found;
}

const bodies = makeAjv(false);
const params = makeAjv(true);
// A reply check reports every problem at once: it is for whoever mends the simulator.
const replyChecker = makeAjv(false, true);
const pointer = (id: string) => `github#/operations/${id.replace(/~/g, '~0').replace(/\//g, '~1')}`;
const cache = new Map<string, ValidateFunction>();

function compiled(ajv: Ajv, key: string, schema: object): ValidateFunction {
  let fn = cache.get(key);
  if (!fn) {
    fn = ajv.compile(schema);
    cache.set(key, fn);
  }
  return fn;
}

export const routes: Route[] = (Object.entries(operations) as [OperationId, Operation][]).map(
  ([operationId, op]) => {
    const names: string[] = [];
    const source = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return {
      operationId,
      method: op.method.toUpperCase(),
      pattern: new RegExp(`^${source}$`),
      names,
      documentationUrl: op.documentationUrl ?? 'https://docs.github.com/rest',
    };
  },
);

export function matchRoute(method: string, pathname: string) {
  let pathMatched = false;
  for (const route of routes) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    const values = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
    return { route, values };
  }
  return { route: null, pathMatched };
}

/** GitHub-style sentences for schema errors: `"head" wasn't supplied.`, `For 'draft', "x" is not a boolean.` */
function describe(errors: ErrorObject[] | null | undefined, data: unknown, where: string): string {
  return (errors ?? [])
    .map((e) => {
      if (e.keyword === 'required')
        return `"${(e.params as { missingProperty: string }).missingProperty}" wasn't supplied.`;
      const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.') || where;
      const value = JSON.stringify(
        e.instancePath
          .split('/')
          .slice(1)
          .reduce<unknown>(
            (v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
            data,
          ),
      );
      if (e.keyword === 'enum') {
        return `For '${field}', ${value} is not a member of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}.`;
      }
      if (e.keyword === 'type')
        return `For '${field}', ${value} is not ${article((e.params as { type: string }).type)}.`;
      return `For '${field}', ${value} ${e.message}.`;
    })
    .join('\n');
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

export function invalidRequest(route: Pick<Route, 'documentationUrl'>, detail: string): Invalid {
  return {
    status: 422,
    body: {
      message: `Invalid request.\n\n${detail}`,
      documentation_url: route.documentationUrl,
      status: '422',
    },
  };
}

/** Validates path and query parameters (coercing strings as GitHub does) and the JSON body. */
export function validateRequest(
  route: Route,
  pathValues: Record<string, string>,
  query: URLSearchParams,
  rawBody: string,
):
  | { ok: true; path: Record<string, any>; query: Record<string, any>; body: any }
  | { ok: false; error: Invalid } {
  const op = operations[route.operationId];
  const pathOut: Record<string, unknown> = {};
  const queryOut: Record<string, unknown> = {};
  for (const [i, p] of op.parameters.entries()) {
    if (p.in === 'header') continue;
    const raw = p.in === 'path' ? pathValues[p.name] : (query.get(p.name) ?? undefined);
    if (raw === undefined) {
      if (p.required) return { ok: false, error: invalidRequest(route, `"${p.name}" wasn't supplied.`) };
      continue;
    }
    const holder = { value: raw as unknown };
    const validate = compiled(params, `${route.operationId}:p${i}`, {
      type: 'object',
      properties: { value: { $ref: `${pointer(route.operationId)}/parameters/${i}/schema` } },
    });
    const valid: boolean = validate(holder);
    if (!valid) {
      // A malformed path segment does not name a resource at all.
      if (p.in === 'path') return { ok: false, error: notFound() };
      return {
        ok: false,
        error: invalidRequest(
          route,
          describe(validate.errors, holder, p.name).replace(/'value(\.|')/g, `'${p.name}$1`),
        ),
      };
    }
    (p.in === 'path' ? pathOut : queryOut)[p.name] = holder.value;
  }

  let body: unknown;
  if (op.requestBody) {
    if (rawBody.trim() === '') {
      if (op.requestBody.required)
        return { ok: false, error: invalidRequest(route, 'The request body is required.') };
      body = {};
    } else {
      try {
        body = JSON.parse(rawBody);
      } catch {
        return {
          ok: false,
          error: {
            status: 400,
            body: {
              message: 'Problems parsing JSON',
              documentation_url: route.documentationUrl,
              status: '400',
            },
          },
        };
      }
    }
    const validate = compiled(bodies, `${route.operationId}:body`, {
      $ref: `${pointer(route.operationId)}/requestBody/schema`,
    });
    const valid: boolean = validate(body);
    if (!valid) return { ok: false, error: invalidRequest(route, describe(validate.errors, body, 'body')) };
  }
  return { ok: true, path: pathOut, query: queryOut, body };
}

export const notFound = (documentationUrl = 'https://docs.github.com/rest'): Invalid => ({
  status: 404,
  body: { message: 'Not Found', documentation_url: documentationUrl, status: '404' },
});

/**
 * Where a success reply breaks the description: an undocumented status, or a body off its schema
 * (a missing required field, a wrong type). Error replies keep GitHub's error shape by construction.
 */
export function replyProblems(operationId: OperationId, status: number, body: unknown): string[] {
  if (status >= 400) return [];
  const replies = operations[operationId].replies;
  if (!(String(status) in replies)) return [`${operationId}: ${status} is not a documented reply`];
  if (replies[String(status)] === null) return [];
  const validate = compiled(replyChecker, `${operationId}:reply${status}`, {
    $ref: `${pointer(operationId)}/replies/${status}`,
  });
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e) => `${operationId} ${status}: ${e.instancePath || '/'} ${e.message ?? e.keyword}`,
  );
}

import {
  buildSchema,
  execute,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';

// GitHub's GraphQL endpoint, for the documents booty sends: each is parsed and validated against
// GitHub's published schema (@octokit/graphql-schema), then executed against the simulator's state
// by the few root fields it implements. Errors come back as GitHub sends them: HTTP 200 with errors.

let schema: Promise<GraphQLSchema> | null = null;

/** Built once per process; the schema is large, so the simulator warms it at start. */
export function githubSchema(): Promise<GraphQLSchema> {
  schema ??= import('@octokit/graphql-schema').then((m) =>
    buildSchema(m.schema.idl, { assumeValidSDL: true }),
  );
  return schema;
}

export class SimGraphQLError extends Error {
  constructor(
    message: string,
    readonly type: string,
  ) {
    super(message);
  }
}

/** A root field: it takes the arguments its field declares, which graphql-js checked against the schema. */
type Resolver = (args: never) => unknown;

/** Root fields the simulator implements; a valid document asking for another gets a clear error. */
export type RootResolvers = {
  query: Record<string, Resolver>;
  mutation: Record<string, Resolver>;
};

export interface GraphQLRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export async function runGraphQL(
  request: GraphQLRequest,
  resolvers: RootResolvers,
): Promise<Record<string, unknown>> {
  if (typeof request.query !== 'string') {
    return { errors: [{ message: 'A query attribute must be specified and must be a string.' }] };
  }
  let document: ReturnType<typeof parse>;
  try {
    document = parse(request.query);
  } catch (err) {
    const e = err as GraphQLError;
    return { errors: [{ message: e.message, locations: e.locations }] };
  }
  const s = await githubSchema();
  const problems = validate(s, document);
  if (problems.length) {
    return {
      errors: problems.map((p) => ({
        message: p.message,
        locations: p.locations,
        extensions: { code: 'undefinedField' },
      })),
    };
  }
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const op = operations.find((o) => o.name?.value === request.operationName) ?? operations[0]!;
  const roots = op.operation === 'mutation' ? resolvers.mutation : resolvers.query;
  for (const sel of op.selectionSet.selections) {
    if (sel.kind === Kind.FIELD && !sel.name.value.startsWith('__') && !(sel.name.value in roots)) {
      return {
        errors: [
          {
            message: `The GitHub simulator does not implement ${op.operation} field '${sel.name.value}'.`,
            type: 'NOT_IMPLEMENTED',
          },
        ],
      };
    }
  }
  const rootValue = Object.fromEntries(
    Object.entries(roots).map(([field, fn]) => [
      field,
      (args: unknown) => {
        try {
          return fn(args as never);
        } catch (err) {
          if (err instanceof SimGraphQLError)
            throw new GraphQLError(err.message, { extensions: { type: err.type } });
          throw err;
        }
      },
    ]),
  );
  const result = await execute({
    schema: s,
    document,
    rootValue,
    variableValues: (request.variables ?? {}) as Record<string, unknown>,
    operationName: typeof request.operationName === 'string' ? request.operationName : undefined,
  });
  const out: Record<string, unknown> = { data: result.data ?? null };
  if (result.errors?.length) {
    // GitHub puts the error type beside the message, not under extensions.
    out.errors = result.errors.map((e) => ({
      type: (e.extensions?.type as string | undefined) ?? 'INTERNAL',
      path: e.path,
      locations: e.locations,
      message: e.message,
    }));
  }
  return out;
}

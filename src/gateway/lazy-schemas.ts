import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

// fastify compiles every route's schemas when it starts: an Ajv instance, a validator for each
// request part and a fast-json-stringify serializer for each reply, generated code and all. That
// was about 4 MB of an idle serve's 80, for an API that may not be called for days. These are
// fastify's own compilers (its own copies, required from where fastify is), with the same options;
// each route's are built on its first request instead.

type Builder = (externalSchemas: unknown, options: unknown) => (route: unknown) => unknown;
type Checker = ((data: unknown) => unknown) & { errors?: unknown };

const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

/** The `schemaController` option: fastify's compilers, each route's schemas compiled on first use. */
export function lazySchemaController(): NonNullable<FastifyServerOptions['schemaController']> {
  return {
    compilersFactory: {
      buildValidator: lazyBuilder(() => (fromFastify('@fastify/ajv-compiler') as () => Builder)()),
      buildSerializer: lazyBuilder(() =>
        (fromFastify('@fastify/fast-json-stringify-compiler') as () => Builder)(),
      ),
    },
  } as NonNullable<FastifyServerOptions['schemaController']>;
}

/** fastify's builder as fastify calls it, each step taken on the first request that needs it. */
function lazyBuilder(load: () => Builder): Builder {
  let selector: Builder | undefined;
  return (externalSchemas, options) => {
    let compile: ((route: unknown) => unknown) | undefined;
    return (route) => {
      let real: Checker | undefined;
      // fastify reads a validator's `errors` after a call that returns false.
      const check: Checker = (data) => {
        if (!real) {
          selector ??= load();
          compile ??= selector(externalSchemas, options);
          real = compile(route) as Checker;
        }
        const result = real(data);
        check.errors = real.errors;
        return result;
      };
      return check;
    };
  };
}

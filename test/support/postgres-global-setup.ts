import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './postgres-server.js';

// One PostgreSQL server for the whole run, stopped when it ends; each test file makes its own
// database on it (postgres-database.ts).

export default async function setup(project: TestProject) {
  const server = await startPostgresServer();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { inject } from 'vitest';

// Databases on the run's PostgreSQL server (postgres-global-setup.ts): one per test file, and
// within it a schema per test that needs an empty store, named in the URL's search_path.

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  // Loaded here, not on import: a test may check that only PostgreSQL stores load pg.
  const { default: pg } = await import('pg');
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const uniqueName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** A new, empty database; its URL. */
export async function freshDatabase(): Promise<string> {
  const url = new URL(inject('postgresUrl'));
  const name = uniqueName('booty');
  await admin(url.href, (c) => c.query(`CREATE DATABASE ${name}`));
  url.pathname = `/${name}`;
  return url.href;
}

/** A new, empty schema in a database, and the URL that makes it the connection's only one. */
export async function freshSchema(databaseUrl: string): Promise<string> {
  const name = uniqueName('s');
  await admin(databaseUrl, (c) => c.query(`CREATE SCHEMA ${name}`));
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  return url.href;
}

/** Runs SQL on a database outside any store, as an operator (or a test) would. */
export const onDatabase = admin;

import pg from 'pg';

/** A new, empty database on the benchmark's server, named; its URL. */
export async function createDatabase(admin: string, name: string): Promise<string> {
  const client = new pg.Client(admin);
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.href;
}

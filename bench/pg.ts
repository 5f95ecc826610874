import pg from 'pg';

/** A short-lived connection to the bench's PostgreSQL (schemas made and dropped around a case). */
export async function withPg<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

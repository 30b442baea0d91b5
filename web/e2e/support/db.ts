// Reads and writes of the run's database for what no API shows (the mail outbox) or allows (a link's expiry in the
// past). Used sparingly: a journey drives the product through the browser.
import postgres from 'postgres';
import type { StackInfo } from './stack.js';

/** Runs `work` with a one-connection client of the run's database, closed afterwards. */
export async function withDb<T>(stack: StackInfo, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(stack.databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    return await work(sql);
  } finally {
    await sql.end();
  }
}

/** The body of the newest mail to `to` whose subject contains `subject`, waiting up to 5 s for the auth service. */
export async function latestMail(stack: StackInfo, to: string, subject: string): Promise<string> {
  return withDb(stack, async (sql) => {
    for (let i = 0; i < 50; i++) {
      const [row] = await sql<
        { body: string }[]
      >`select body from auth.mail_outbox where to_address = ${to} and subject ilike ${`%${subject}%`} order by id desc limit 1`;
      if (row) return row.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no mail to ${to} about "${subject}"`);
  });
}

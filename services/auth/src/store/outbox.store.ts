// All SQL of the mail outbox: mail is written with the change that causes it and sent afterwards by the relay.
import type { Sql } from '@fieldwork/service-kit';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

export interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  body: string;
  attempts: number;
}

export class OutboxStore {
  constructor(private readonly sql: Sql) {}

  async enqueue(mail: Mail): Promise<void> {
    await this
      .sql`insert into mail_outbox (to_address, subject, body) values (${mail.to}, ${mail.subject}, ${mail.body})`;
    await this.sql`select pg_notify('auth_mail_outbox', '')`;
  }

  /** Sends unsent mail through `send`, one row at a time, skipping rows another replica holds. */
  async drain(send: (row: OutboxRow) => Promise<void>, maxAttempts: number, limit = 50): Promise<number> {
    let sent = 0;
    for (let i = 0; i < limit; i++) {
      const done = await this.sql.begin(async (tx) => {
        const [row] = await tx<OutboxRow[]>`
          select id, to_address, subject, body, attempts from mail_outbox
          where sent_at is null and attempts < ${maxAttempts}
          order by id limit 1 for update skip locked`;
        if (!row) return false;
        try {
          await send(row);
          await tx`update mail_outbox set sent_at = now(), attempts = attempts + 1 where id = ${row.id}`;
          sent++;
        } catch (err) {
          await tx`update mail_outbox set attempts = attempts + 1, last_error = ${String(err)} where id = ${row.id}`;
        }
        return true;
      });
      if (!done) break;
    }
    return sent;
  }

  async listenForMail(onMail: () => void): Promise<() => Promise<void>> {
    const sub = await this.sql.listen('auth_mail_outbox', onMail);
    return () => sub.unlisten();
  }

  /** For tests and the CLI: the latest mail sent to `to`. */
  async latestTo(to: string): Promise<OutboxRow | undefined> {
    const [row] = await this.sql<OutboxRow[]>`
      select id, to_address, subject, body, attempts from mail_outbox where lower(to_address) = ${to.toLowerCase()}
      order by id desc limit 1`;
    return row;
  }
}

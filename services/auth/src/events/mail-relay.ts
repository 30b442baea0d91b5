// Sends the mail outbox: on a NOTIFY from the writer, and every interval as a sweep. The log transport (the
// single-machine default) writes each mail to the log so the demo's reset links can be followed.
import nodemailer from 'nodemailer';
import type { Logger } from '@fieldwork/service-kit';
import type { OutboxRow, OutboxStore } from '../store/outbox.store.js';

export interface MailTransportConfig {
  transport: 'log' | 'smtp';
  smtpUrl: string;
  from: string;
}

export function mailSender(config: MailTransportConfig, log: Logger): (row: OutboxRow) => Promise<void> {
  if (config.transport === 'log') {
    return async (row) => {
      log.info({ mail: { to: row.to_address, subject: row.subject, body: row.body } }, 'mail (log transport)');
    };
  }
  const transporter = nodemailer.createTransport(config.smtpUrl);
  return async (row) => {
    await transporter.sendMail({ from: config.from, to: row.to_address, subject: row.subject, text: row.body });
  };
}

export async function startMailRelay(
  outbox: OutboxStore,
  send: (row: OutboxRow) => Promise<void>,
  log: Logger,
  intervalMs = 30_000,
): Promise<() => Promise<void>> {
  let running: Promise<void> | undefined;
  let again = false;
  const drain = () => {
    if (running) {
      again = true;
      return;
    }
    running = outbox
      .drain(send, 5)
      .then((n) => {
        if (n > 0) log.debug({ sent: n }, 'mail sent');
      })
      .catch((err: unknown) => log.error({ err }, 'mail relay failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          drain();
        }
      });
  };
  const unlisten = await outbox.listenForMail(drain);
  const timer = setInterval(drain, intervalMs);
  timer.unref();
  drain();
  return async () => {
    clearInterval(timer);
    await unlisten();
    await running;
  };
}

// Sends the mail outbox: on a NOTIFY from the writer, and every interval as a sweep. The log transport (the
// single-machine default) writes each mail to the log so the demo's reset links can be followed.
import nodemailer from 'nodemailer';
import type { Logger } from '@fieldwork/service-kit';
import type { OutboxRow, OutboxStore } from '../store/outbox.store.js';
import { startRelay } from './relay.js';

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
  return startRelay({
    drain: () => outbox.drain(send, 5),
    listen: (wake) => outbox.listenForMail(wake),
    intervalMs,
    log,
    sent: 'mail sent',
    failed: 'mail relay failed',
  });
}

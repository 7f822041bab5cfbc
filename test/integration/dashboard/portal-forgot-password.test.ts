// The developer portal's "Forgot your password?" post on a real dashboard, PostgreSQL and the tests' SMTP server:
// the answer never waits for what only a registered e-mail costs (the token's writes), so its timing cannot tell
// which e-mails are registered. Shown without measuring time: while another connection holds the token table
// locked, the post for a registered e-mail still answers, with the page an unknown e-mail gets; the reset link goes
// out once the lock is released.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { startPostgres } from '../../support/postgres.ts';
import { mailBody, startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('portal forgot-password: the answer does not wait for the reset token', () => {
  let dashboard: RunningDashboard;
  let db: Database;
  let smtp: TestSmtpServer;
  let org: TestOrg;
  const email = `registered-${process.pid}@example.test`;

  beforeAll(async () => {
    const [postgres, server] = await Promise.all([startPostgres(), startSmtpServer()]);
    smtp = server;
    const url = postgres.createDatabase('portal_forgot');
    dashboard = await startDashboard({
      database_url: url,
      smtp_host: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_starttls: 'off',
      smtp_from: 'portal@example.test',
    });
    db = await openDatabase(url);
    org = await createOrg(dashboard, 'Acme');
    const created = await org.call('POST', '/api/portal/developers', { email, password: 'a developer password 1' });
    expect(created.status, created.text).toBe(200);
  });
  afterAll(async () => db.close());

  const forgot = (address: string) => dashboard.anonymous('POST', `/portal/${org.id}/password/forgot/`, `email=${encodeURIComponent(address)}`, FORM);
  const notice = (page: string): string | undefined => /<p role="status" class="notice">([^<]*)<\/p>/.exec(page)?.[1];

  it('answers a registered e-mail while the token table is locked, as it answers an unknown one; the link follows', async () => {
    const unknown = await forgot(`nobody-${process.pid}@example.test`);
    expect(unknown.status).toBe(200);
    const registered = await db.transaction(async (tx) => {
      await tx.query('LOCK TABLE portal_developer_tokens IN ACCESS EXCLUSIVE MODE');
      // Were the token issued before the answer, this post would wait for the lock, held until the answer comes.
      return forgot(email);
    });
    expect(registered.status).toBe(200);
    expect(notice(registered.text)).toBe(notice(unknown.text));
    expect(notice(registered.text)).toContain('If a developer account has this e-mail');
    expect(mailBody(await smtp.nextMessage(email))).toMatch(new RegExp(`/portal/${org.id}/password/reset/\\?token=`));
  });
});

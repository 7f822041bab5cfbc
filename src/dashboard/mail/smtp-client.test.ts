// The SMTP client (smtp-client.ts) against a real SMTP exchange with the tests' SMTP server: STARTTLS with a
// test certificate, AUTH PLAIN and LOGIN, dot-stuffing, and the refusals (no STARTTLS when required, replies
// injected in clear after STARTTLS, credentials never sent in clear, a wrong password and a refused recipient
// reported without them, header injection, a silent server timing out).
import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { pemMaterial, type PemMaterial } from '../../../test/support/pem-material.ts';
import { mailBody, startSmtpServer } from '../../../test/support/smtp-server.ts';
import { messageData, sendMail, SmtpError, type MailMessage, type SmtpOptions } from './smtp-client.ts';

const credentials = { user: 'portal', password: 'smtp-secret-123' };
const message: MailMessage = {
  from: 'portal@example.test',
  fromName: 'Acme portal',
  to: 'dev@example.test',
  subject: 'Reset your password',
  text: 'Follow this link:\nhttps://portal.example.test/reset?token=abc\n.\n..two dots\nThanks',
};

describe('sendMail', () => {
  let pem: PemMaterial;
  beforeAll(() => {
    pem = pemMaterial('localhost');
  });
  const options = (port: number, extra: Partial<SmtpOptions> = {}): SmtpOptions => ({
    host: 'localhost',
    port,
    starttls: 'required',
    ca: pem.cert,
    timeoutMs: 5000,
    ...extra,
  });

  it('sends over STARTTLS with AUTH PLAIN; the body arrives dot-stuffing undone', async () => {
    const server = await startSmtpServer({ tls: { cert: pem.cert, key: pem.key }, credentials });
    await sendMail(options(server.port, credentials), message);
    const mail = await server.nextMessage('dev@example.test');
    expect(mail).toMatchObject({ from: 'portal@example.test', to: ['dev@example.test'], tls: true, user: 'portal' });
    expect(mail.data).toMatch(/^From: "Acme portal" <portal@example\.test>\r\nTo: <dev@example\.test>\r\nSubject: Reset your password\r\n/);
    expect(mailBody(mail)).toBe('Follow this link:\r\nhttps://portal.example.test/reset?token=abc\r\n.\r\n..two dots\r\nThanks');
    // The credentials went after STARTTLS only.
    expect(server.commands.indexOf('STARTTLS')).toBeLessThan(server.commands.findIndex((c) => c.startsWith('AUTH')));
  });

  it('uses AUTH LOGIN when the server offers only that', async () => {
    const server = await startSmtpServer({ tls: { cert: pem.cert, key: pem.key }, credentials, authMechanism: 'LOGIN' });
    await sendMail(options(server.port, credentials), message);
    expect((await server.nextMessage('dev@example.test')).user).toBe('portal');
  });

  it('refuses to send without STARTTLS when required, and never sends credentials in clear when optional', async () => {
    const server = await startSmtpServer({ credentials });
    await expect(sendMail(options(server.port, credentials), message)).rejects.toThrow('does not offer STARTTLS');
    await expect(sendMail(options(server.port, { ...credentials, starttls: 'optional' }), message)).rejects.toThrow('only sent over TLS');
    expect(server.commands.some((c) => c.startsWith('AUTH'))).toBe(false);
    expect(server.messages).toEqual([]);
  });

  it('sends in plain text when starttls is off', async () => {
    const server = await startSmtpServer();
    await sendMail(options(server.port, { starttls: 'off' }), message);
    expect((await server.nextMessage('dev@example.test')).tls).toBe(false);
  });

  it('refuses replies sent in clear after the STARTTLS reply (injected), before any command inside TLS', async () => {
    const injected = '250-smtp.test hello\r\n250 AUTH PLAIN\r\n';
    const server = await startSmtpServer({ tls: { cert: pem.cert, key: pem.key }, credentials, injectAfterStartTls: injected });
    await expect(sendMail(options(server.port, credentials), message)).rejects.toThrow(
      'SMTP server sent more than its reply to STARTTLS before the TLS handshake',
    );
    expect(server.commands.at(-1)).toBe('STARTTLS');
    expect(server.messages).toEqual([]);
  });

  it('refuses a server certificate from an unknown CA', async () => {
    const server = await startSmtpServer({ tls: { cert: pem.cert, key: pem.key } });
    await expect(sendMail(options(server.port, { ca: pem.caCert }), message)).rejects.toThrow('TLS handshake failed');
  });

  it('reports a refused AUTH by its code, never with the password', async () => {
    const server = await startSmtpServer({ tls: { cert: pem.cert, key: pem.key }, credentials });
    const error = await sendMail(options(server.port, { user: 'portal', password: 'wrong-password-xyz' }), message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmtpError);
    expect((error as Error).message).toBe('SMTP server refused AUTH: 535');
    expect(server.messages).toEqual([]);
  });

  it('reports a refused recipient by its code, never with the address the server echoes', async () => {
    const server = await startSmtpServer({ refuseRecipients: true });
    const error = await sendMail(options(server.port, { starttls: 'off' }), message).catch((e: unknown) => e);
    expect((error as Error).message).toBe('SMTP server refused RCPT TO: 550');
  });

  it('times out on a server that never answers', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    await expect(sendMail(options(port, { host: '127.0.0.1', timeoutMs: 300 }), message)).rejects.toThrow('did not answer the connection within 300 ms');
    silent.close();
  });
});

describe('messageData', () => {
  it('refuses line breaks in headers and addresses that are not one address', () => {
    expect(() => messageData({ ...message, subject: 'Hi\r\nBcc: victim@example.test' })).toThrow('subject must not contain a line break');
    expect(() => messageData({ ...message, to: 'a@b.test>\r\nRCPT TO:<c@d.test' })).toThrow('to is not an e-mail address');
  });

  it('encodes a non-ASCII subject and body', () => {
    const data = messageData({ ...message, subject: 'Réinitialiser', text: 'Bonjour Zoë' });
    expect(data).toContain(`Subject: =?UTF-8?B?${Buffer.from('Réinitialiser').toString('base64')}?=\r\n`);
    expect(data).toContain('Content-Transfer-Encoding: base64');
    expect(data).toContain(Buffer.from('Bonjour Zoë').toString('base64'));
  });
});

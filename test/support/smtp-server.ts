// A small SMTP server for tests (node:net): answers EHLO, STARTTLS (when given a certificate), AUTH PLAIN and
// LOGIN (when given credentials), MAIL FROM, RCPT TO, DATA (undoing dot-stuffing) and QUIT, and records every
// message accepted with whether it came over TLS and who authenticated. Tests read `messages`, or wait for one
// with `nextMessage(to)`. Closed after the test file.
import { createServer, type Server, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { afterAll } from 'vitest';
import { waitUntil } from './wait.ts';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent after DATA (headers and body, CRLF line ends), dot-stuffing undone. */
  data: string;
  tls: boolean;
  user: string | undefined;
}

export interface SmtpServerOptions {
  /** Offer STARTTLS with this certificate and key (PEM). */
  tls?: { cert: string; key: string };
  /** Require AUTH with these credentials before MAIL FROM. */
  credentials?: { user: string; password: string };
  /** Offer only this AUTH mechanism. */
  authMechanism?: 'PLAIN' | 'LOGIN';
  /** Refuse every recipient, echoing the address as servers do (`550 5.1.1 <address>: Recipient address rejected`). */
  refuseRecipients?: boolean;
  /** Plain text written with the STARTTLS reply, in the same write (replies a man in the middle injects). */
  injectAfterStartTls?: string;
}

export interface TestSmtpServer {
  port: number;
  messages: ReceivedMail[];
  /** Every command line received (AUTH arguments included: the tests check what was sent). */
  commands: string[];
  /** Waits for the next message to `to` not yet taken and takes it. */
  nextMessage(to: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

const servers = new Set<Server>();
afterAll(async () => {
  await Promise.all([...servers].map((server) => new Promise((resolve) => server.close(resolve))));
  servers.clear();
});

/** The body of a received message (base64 bodies decoded). */
export function mailBody(mail: ReceivedMail): string {
  const split = mail.data.indexOf('\r\n\r\n');
  const headers = mail.data.slice(0, split);
  const body = mail.data.slice(split + 4);
  return /content-transfer-encoding: base64/i.test(headers) ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : body;
}

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const commands: string[] = [];
  const taken = new Set<ReceivedMail>();
  const serve = (plain: Socket): void => {
    let socket: Socket = plain;
    let tls = false;
    let user: string | undefined;
    let buffer = '';
    let mail: { from: string; to: string[] } | undefined;
    let data: string[] | undefined;
    let login: 'user' | 'password' | undefined;
    let loginUser = '';
    const say = (line: string): void => void socket.write(`${line}\r\n`);
    const ehlo = (): void => {
      const extensions = ['PIPELINING', '8BITMIME'];
      if (options.tls && !tls) extensions.push('STARTTLS');
      if (options.credentials) extensions.push(`AUTH ${options.authMechanism ?? 'PLAIN LOGIN'}`);
      say('250-smtp.test hello');
      extensions.forEach((extension, i) => say(`250${i === extensions.length - 1 ? ' ' : '-'}${extension}`));
    };
    const checkLogin = (name: string, password: string): void => {
      if (options.credentials && name === options.credentials.user && password === options.credentials.password) {
        user = name;
        say('235 2.7.0 Authentication successful');
      } else say('535 5.7.8 Authentication credentials invalid');
    };
    const line = (text: string): void => {
      if (data) {
        if (text === '.') {
          messages.push({ from: mail!.from, to: mail!.to, data: data.join('\r\n'), tls, user });
          data = undefined;
          mail = undefined;
          return say('250 2.0.0 queued');
        }
        data.push(text.startsWith('.') ? text.slice(1) : text);
        return;
      }
      commands.push(text);
      if (login === 'user') {
        loginUser = Buffer.from(text, 'base64').toString('utf8');
        login = 'password';
        return say(`334 ${Buffer.from('Password:').toString('base64')}`);
      }
      if (login === 'password') {
        login = undefined;
        return checkLogin(loginUser, Buffer.from(text, 'base64').toString('utf8'));
      }
      const [verb = '', ...rest] = text.split(' ');
      switch (verb.toUpperCase()) {
        case 'EHLO':
          return ehlo();
        case 'STARTTLS': {
          if (!options.tls || tls) return say('502 5.5.1 not offered');
          socket.write(`220 2.0.0 ready to start TLS\r\n${options.injectAfterStartTls ?? ''}`);
          plain.removeAllListeners('data');
          socket = new TLSSocket(plain, { isServer: true, cert: options.tls.cert, key: options.tls.key });
          tls = true;
          socket.on('data', onData);
          socket.on('error', () => socket.destroy());
          return;
        }
        case 'AUTH': {
          const [mechanism, initial] = rest;
          if (mechanism?.toUpperCase() === 'PLAIN' && initial) {
            const [, name = '', password = ''] = Buffer.from(initial, 'base64').toString('utf8').split('\0');
            return checkLogin(name, password);
          }
          if (mechanism?.toUpperCase() === 'LOGIN') {
            login = 'user';
            return say(`334 ${Buffer.from('Username:').toString('base64')}`);
          }
          return say('504 5.5.4 mechanism not supported');
        }
        case 'MAIL':
          if (options.credentials && !user) return say('530 5.7.0 Authentication required');
          mail = { from: /<([^>]*)>/.exec(text)?.[1] ?? '', to: [] };
          return say('250 2.1.0 ok');
        case 'RCPT':
          if (!mail) return say('503 5.5.1 MAIL first');
          if (options.refuseRecipients) return say(`550 5.1.1 ${/<[^>]*>/.exec(text)?.[0] ?? ''}: Recipient address rejected`);
          mail.to.push(/<([^>]*)>/.exec(text)?.[1] ?? '');
          return say('250 2.1.5 ok');
        case 'DATA':
          if (!mail || mail.to.length === 0) return say('503 5.5.1 RCPT first');
          data = [];
          return say('354 end with <CRLF>.<CRLF>');
        case 'QUIT':
          say('221 2.0.0 bye');
          return void socket.end();
        default:
          return say('502 5.5.2 command not recognised');
      }
    };
    const onData = (chunk: Buffer): void => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end !== -1; end = buffer.indexOf('\r\n')) {
        const text = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        line(text);
      }
    };
    plain.on('data', onData);
    plain.on('error', () => plain.destroy());
    say('220 smtp.test ESMTP test server');
  };
  const server = createServer(serve);
  servers.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('SMTP test server has no port');
  return {
    port: address.port,
    messages,
    commands,
    nextMessage: (to) =>
      waitUntil(`an e-mail to ${to}`, () => {
        const found = messages.find((message) => !taken.has(message) && message.to.includes(to));
        if (found) taken.add(found);
        return found;
      }),
    close: () =>
      new Promise((resolve) => {
        servers.delete(server);
        server.close(() => resolve());
      }),
  };
}

// A small SMTP client (RFC 5321) for the dashboard's few e-mails (the developer portal's verification and
// password-reset links): one connection per message over node:net, EHLO, STARTTLS (RFC 3207) when the server
// offers it and `starttls` allows it (required: refuse to go on without it; optional; off), AUTH PLAIN or LOGIN
// (RFC 4954) only over TLS unless starttls is off, MAIL FROM / RCPT TO / DATA with dot-stuffing, QUIT. Bounded:
// every wait (connect, each reply) has the timeout, a reply line is at most 2 000 bytes and a reply 100 lines.
// Header values refuse CR and LF (no header injection); nothing sent in clear after the STARTTLS reply is read; a non-ASCII subject is RFC 2047-encoded and a body with
// non-ASCII or long lines is sent base64. The password never appears in an error or a log: a refused AUTH is
// reported by its status code only, and so is a refused RCPT TO (servers echo the address).
import { randomBytes } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';

export interface SmtpOptions {
  host: string;
  port: number;
  starttls: 'required' | 'optional' | 'off';
  /** CA certificates (PEM) trusted for the server's certificate; undefined: the system's. */
  ca?: string | undefined;
  user?: string | undefined;
  password?: string | undefined;
  timeoutMs: number;
  /** The name sent with EHLO (default: this host's name). */
  clientName?: string;
}

export interface MailMessage {
  from: string;
  fromName?: string;
  to: string;
  subject: string;
  text: string;
}

export class SmtpError extends Error {
  override name = 'SmtpError';
}

const MAX_LINE = 2000;
const MAX_REPLY_LINES = 100;
const ADDRESS = /^[^\s<>@"]{1,64}@[^\s<>@"]{1,255}$/;

interface Reply {
  code: number;
  lines: string[];
}

/** Reads SMTP replies from a socket (switched to the TLS socket after STARTTLS). */
class ReplyReader {
  #socket: Socket | TLSSocket;
  #buffer = '';
  #lines: string[] = [];
  /** Complete replies nobody waits for yet (the greeting may come before it is read). */
  #replies: Reply[] = [];
  #waiter: { resolve: (reply: Reply) => void; reject: (error: Error) => void; timer: NodeJS.Timeout } | undefined;
  #failure: Error | undefined;
  readonly #timeoutMs: number;
  readonly #onData = (chunk: Buffer): void => this.#take(chunk.toString('latin1'));
  readonly #onError = (error: Error): void => this.#fail(new SmtpError(`SMTP connection failed: ${error.message}`));
  readonly #onClose = (): void => this.#fail(new SmtpError('SMTP server closed the connection'));

  constructor(socket: Socket, timeoutMs: number) {
    this.#socket = socket;
    this.#timeoutMs = timeoutMs;
    this.#attach();
  }

  get socket(): Socket | TLSSocket {
    return this.#socket;
  }

  #attach(): void {
    this.#socket.on('data', this.#onData).on('error', this.#onError).on('close', this.#onClose);
  }

  /** Whether nothing was read past the last reply taken (no queued reply, no partial line). */
  get drained(): boolean {
    return this.#replies.length === 0 && this.#lines.length === 0 && this.#buffer === '';
  }

  /** Stops reading the current socket (before STARTTLS wraps it) and reads the new one. */
  switchTo(socket: TLSSocket): void {
    this.#socket.off('data', this.#onData).off('error', this.#onError).off('close', this.#onClose);
    this.#socket = socket;
    this.#buffer = '';
    this.#attach();
  }

  #take(text: string): void {
    this.#buffer += text;
    for (let end = this.#buffer.indexOf('\r\n'); end !== -1; end = this.#buffer.indexOf('\r\n')) {
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      this.#lines.push(line);
      if (this.#lines.length > MAX_REPLY_LINES) return this.#fail(new SmtpError(`SMTP reply longer than ${MAX_REPLY_LINES} lines`));
      const match = /^(\d{3})([ -])/.exec(line);
      if (!match) return this.#fail(new SmtpError('SMTP reply not understood'));
      if (match[2] === ' ') {
        const reply = { code: Number(match[1]), lines: this.#lines.map((l) => l.slice(4)) };
        this.#lines = [];
        const waiter = this.#waiter;
        this.#waiter = undefined;
        if (waiter) {
          clearTimeout(waiter.timer);
          waiter.resolve(reply);
        } else if (this.#replies.push(reply) > 2) return this.#fail(new SmtpError('SMTP server sent replies nobody asked for'));
      }
    }
    if (this.#buffer.length > MAX_LINE) this.#fail(new SmtpError(`SMTP reply line longer than ${MAX_LINE} bytes`));
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter) {
      clearTimeout(waiter.timer);
      waiter.reject(this.#failure);
    }
    this.#socket.destroy();
  }

  /** The next reply (rejects on timeout, a closed connection or a malformed reply). */
  read(what: string): Promise<Reply> {
    const queued = this.#replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.#fail(new SmtpError(`SMTP server did not answer ${what} within ${this.#timeoutMs} ms`)), this.#timeoutMs);
      this.#waiter = { resolve, reject, timer };
    });
  }

  close(): void {
    this.#socket.off('close', this.#onClose);
    this.#socket.end();
  }
}

function headerValue(name: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new SmtpError(`${name} must not contain a line break`);
  return value;
}

const encodedWord = (text: string): string => (/^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`);

/** The message's text as sent after DATA: headers, body, dot-stuffed, CRLF line ends, ending in CRLF.CRLF. */
export function messageData(message: MailMessage, now: Date = new Date()): string {
  for (const [name, address] of [
    ['from', message.from],
    ['to', message.to],
  ] as const) {
    if (!ADDRESS.test(address)) throw new SmtpError(`${name} is not an e-mail address`);
  }
  const fromName = message.fromName ? headerValue('from name', message.fromName).replace(/["\\]/g, '') : '';
  const lines = message.text.replace(/\r\n?/g, '\n').split('\n');
  const plain = /^[\x20-\x7e\t\n]*$/.test(message.text.replace(/\r/g, '')) && lines.every((line) => line.length <= 998);
  const body = plain
    ? lines
    : (Buffer.from(lines.join('\r\n'), 'utf8')
        .toString('base64')
        .match(/.{1,76}/g) ?? []);
  const domain = message.from.split('@')[1]!;
  const headers = [
    `From: ${fromName ? `"${encodedWord(fromName)}" ` : ''}<${message.from}>`,
    `To: <${message.to}>`,
    `Subject: ${encodedWord(headerValue('subject', message.subject))}`,
    `Date: ${now.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${randomBytes(12).toString('hex')}@${domain}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    `Content-Transfer-Encoding: ${plain ? '7bit' : 'base64'}`,
  ];
  const stuffed = [...headers, '', ...body].map((line) => (line.startsWith('.') ? `.${line}` : line));
  return `${stuffed.join('\r\n')}\r\n.\r\n`;
}

/** Sends one message; rejects with an SmtpError naming the step that failed. */
export async function sendMail(options: SmtpOptions, message: MailMessage): Promise<void> {
  const data = messageData(message);
  const socket = netConnect({ host: options.host, port: options.port });
  const reader = new ReplyReader(socket, options.timeoutMs);
  let tls = false;
  const command = async (line: string, what: string, expected: number[]): Promise<Reply> => {
    reader.socket.write(`${line}\r\n`);
    const reply = await reader.read(what);
    if (!expected.includes(reply.code))
      // By its code only where the reply may echo what must not be logged: credentials, the recipient's address.
      throw new SmtpError(
        `SMTP server refused ${what}: ${reply.code}${what === 'AUTH' || what === 'RCPT TO' ? '' : ` ${reply.lines.join(' ').slice(0, 200)}`}`,
      );
    return reply;
  };
  try {
    const greeting = await reader.read('the connection');
    if (greeting.code !== 220) throw new SmtpError(`SMTP server refused the connection: ${greeting.code}`);
    const name = options.clientName ?? (hostname() || 'localhost');
    let ehlo = await command(`EHLO ${name}`, 'EHLO', [250]);
    const offers = (reply: Reply, word: string): string | undefined => reply.lines.find((line) => line.toUpperCase().split(' ')[0] === word);
    if (options.starttls !== 'off' && offers(ehlo, 'STARTTLS') !== undefined) {
      await command('STARTTLS', 'STARTTLS', [220]);
      // Whatever came in clear after the STARTTLS reply would be read as the server's answers inside TLS: replies a
      // man in the middle injected (the STARTTLS response injection of CVE-2011-0411's kind). Refused.
      if (!reader.drained) throw new SmtpError('SMTP server sent more than its reply to STARTTLS before the TLS handshake');
      const secure = tlsConnect({ socket: reader.socket, servername: options.host, ...(options.ca ? { ca: options.ca } : {}) });
      reader.switchTo(secure);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new SmtpError(`SMTP TLS handshake did not finish within ${options.timeoutMs} ms`)), options.timeoutMs);
        secure.once('secureConnect', () => {
          clearTimeout(timer);
          resolve();
        });
        secure.once('error', (error: Error) => {
          clearTimeout(timer);
          reject(new SmtpError(`SMTP TLS handshake failed: ${error.message}`));
        });
      });
      tls = true;
      ehlo = await command(`EHLO ${name}`, 'EHLO', [250]);
    } else if (options.starttls === 'required') {
      throw new SmtpError('SMTP server does not offer STARTTLS (smtp_starttls is required)');
    }
    if (options.user !== undefined) {
      if (!tls && options.starttls !== 'off') throw new SmtpError('SMTP credentials are only sent over TLS: the server did not offer STARTTLS');
      const mechanisms = (offers(ehlo, 'AUTH') ?? '').toUpperCase().split(' ').slice(1);
      const password = options.password ?? '';
      if (mechanisms.includes('PLAIN')) {
        await command(`AUTH PLAIN ${Buffer.from(`\0${options.user}\0${password}`, 'utf8').toString('base64')}`, 'AUTH', [235]);
      } else if (mechanisms.includes('LOGIN')) {
        await command('AUTH LOGIN', 'AUTH', [334]);
        await command(Buffer.from(options.user, 'utf8').toString('base64'), 'AUTH', [334]);
        await command(Buffer.from(password, 'utf8').toString('base64'), 'AUTH', [235]);
      } else {
        throw new SmtpError('SMTP server offers neither AUTH PLAIN nor AUTH LOGIN');
      }
    }
    await command(`MAIL FROM:<${message.from}>`, 'MAIL FROM', [250]);
    await command(`RCPT TO:<${message.to}>`, 'RCPT TO', [250, 251]);
    await command('DATA', 'DATA', [354]);
    reader.socket.write(data);
    const accepted = await reader.read('the message');
    if (accepted.code !== 250) throw new SmtpError(`SMTP server refused the message: ${accepted.code} ${accepted.lines.join(' ').slice(0, 200)}`);
    reader.socket.write('QUIT\r\n');
  } finally {
    reader.close();
  }
}

// The developer portal's account e-mails (the verification link at sign-up, the password-reset link), sent through
// the dashboard's SMTP settings (smtp_*; mail/smtp-client.ts). Links are absolute on the portal's public address
// (site.ts portalOrigin: https://<cname> for an organisation with a domain, unless portal_public_url names it;
// else portal_public_url), else the dashboard's own listen address — never a request's Host header, which a client chooses (a reset link must not point elsewhere). Mail is
// sent in the background: the page answers at once and the same whether a message went out or not (the
// forgot-password answer must not tell which e-mails exist); a failure is logged without the address, the token
// or the SMTP password. Subject and text follow the configuration's mail_options (mail_from_*, and
// email_copy.reset_password_email's subject, body and sign-off when it is enabled). The approval e-mail is sent by
// the admin API (PUT .../developers/approve/{id}), outside any portal request: hence MailContext.
import { readFileSync } from 'node:fs';
import type { DashboardConfig } from '../config.ts';
import { sendMail, type SmtpOptions } from '../mail/smtp-client.ts';
import type { PortalContext } from './context.ts';
import { portalOrigin } from './site.ts';

/** Whether the dashboard can send e-mail at all (smtp_host set). */
export const mailConfigured = (config: DashboardConfig): boolean => config.smtp_host !== undefined;

/** The absolute URL of a portal path (e.g. `password/reset/?token=...`) for a link in an e-mail. */
export function portalLink(ctx: Pick<PortalContext, 'deps' | 'site'>, path: string): string {
  const { config } = ctx.deps;
  const origin =
    portalOrigin(config, ctx.site.org) ??
    `http://${config.listen_address.includes(':') ? `[${config.listen_address}]` : config.listen_address}:${config.listen_port}`;
  return `${origin}${ctx.site.base}${path}`;
}

function smtpOptions(config: DashboardConfig): SmtpOptions {
  return {
    host: config.smtp_host!,
    port: config.smtp_port,
    starttls: config.smtp_starttls,
    ca: config.smtp_ca_file === undefined ? undefined : readFileSync(config.smtp_ca_file, 'utf8'),
    user: config.smtp_user,
    password: config.smtp_password,
    timeoutMs: config.smtp_timeout_seconds * 1000,
  };
}

/** What sending needs: the dashboard, the portal and its configuration (a PortalContext has them). */
export type MailContext = Pick<PortalContext, 'deps' | 'site' | 'settings'>;

export interface AccountMail {
  to: string;
  subject: string;
  lines: string[];
}

/** Sends the message in the background (logged, never thrown); without smtp_host, logs that it was not sent. */
export function sendAccountMail(ctx: MailContext, what: string, mail: AccountMail): void {
  const { config, log } = ctx.deps;
  const org = ctx.site.org.id;
  if (!mailConfigured(config)) {
    log.warn({ org, mail: what }, 'portal e-mail not sent: smtp_host is not set');
    return;
  }
  const options = ctx.settings.mail_options;
  const message = {
    from: options.mail_from_email || config.smtp_from,
    ...(options.mail_from_name ? { fromName: options.mail_from_name } : {}),
    to: mail.to,
    subject: mail.subject,
    text: mail.lines.join('\n'),
  };
  void (async () => {
    try {
      await sendMail(smtpOptions(config), message);
      log.info({ org, mail: what }, 'portal e-mail sent');
    } catch (error) {
      log.warn({ org, mail: what, reason: error instanceof Error ? error.message : String(error) }, 'portal e-mail not sent');
    }
  })();
}

const hours = (seconds: number): string =>
  seconds % 3600 === 0 ? `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`;

export function resetPasswordMail(ctx: PortalContext, to: string, link: string): AccountMail {
  const copy = ctx.settings.mail_options.email_copy.reset_password_email;
  const custom = copy.enabled;
  return {
    to,
    subject: custom && copy.subject ? copy.subject : `Reset your password for the ${ctx.site.org.owner_name} developer portal`,
    lines: [
      custom && copy.body ? copy.body : 'Someone asked to reset the password of your developer account. To choose a new password, open this link:',
      '',
      link,
      '',
      `The link works once, within ${hours(ctx.deps.config.portal_reset_token_ttl_seconds)}. If you did not ask for it, ignore this e-mail: your password stays as it is.`,
      ...(custom && copy.sign_off ? ['', copy.sign_off] : []),
    ],
  };
}

export function verifyEmailMail(ctx: PortalContext, to: string, link: string): AccountMail {
  return {
    to,
    subject: `Confirm your e-mail for the ${ctx.site.org.owner_name} developer portal`,
    lines: [
      'Thank you for registering. To confirm your e-mail address and activate your developer account, open this link:',
      '',
      link,
      '',
      `The link works once, within ${hours(ctx.deps.config.portal_verify_token_ttl_seconds)}. If you did not register, ignore this e-mail.`,
    ],
  };
}

export function developerApprovedMail(ctx: MailContext, to: string, link: string): AccountMail {
  return {
    to,
    subject: `Your account for the ${ctx.site.org.owner_name} developer portal is approved`,
    lines: ['An administrator approved your developer account. You can sign in now:', '', link],
  };
}

// Tyk's OAuth key-change notification: a POST of JSON {auth_code, new_oauth_token, refresh_token,
// old_refresh_token, notification_type: "new"|"refresh"} to notifications.oauth_on_keychange_url, with headers
// `User-Agent: Tyk-Gatewy-Notifications` (Tyk's spelling, kept: receivers may match it), `Content-Type:
// application/json` and `X-Tyk-Shared-Secret: <shared_secret>`. Sent in the background (the token answer never
// waits for it); a failed delivery (network error or a non-2xx answer) is retried after 10 s, three attempts in
// all, as Tyk does. Each attempt is bounded by a 5 s timeout. Tokens are in the body, never in the logs.
import type { PipelineServices } from '../pipeline/services.ts';

export interface KeyChangeNotification {
  auth_code: string;
  new_oauth_token: string;
  refresh_token: string;
  old_refresh_token: string;
  notification_type: 'new' | 'refresh';
}

const ATTEMPTS = 3;
const RETRY_AFTER_MS = 10_000;
const TIMEOUT_MS = 5_000;

export function notifyKeyChange(
  target: { url: string; sharedSecret: string },
  services: Pick<PipelineServices, 'log'>,
  notification: KeyChangeNotification,
): void {
  const body = JSON.stringify(notification);
  const attempt = async (left: number): Promise<void> => {
    try {
      const answer = await fetch(target.url, {
        method: 'POST',
        headers: { 'user-agent': 'Tyk-Gatewy-Notifications', 'content-type': 'application/json', 'x-tyk-shared-secret': target.sharedSecret },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await answer.body?.cancel();
      if (answer.ok) return;
      services.log.warn({ status: answer.status, attemptsLeft: left - 1 }, 'OAuth key-change notification refused');
    } catch (error) {
      services.log.warn({ err: (error as Error).message, attemptsLeft: left - 1 }, 'OAuth key-change notification failed');
    }
    if (left > 1) setTimeout(() => void attempt(left - 1), RETRY_AFTER_MS).unref();
  };
  void attempt(ATTEMPTS);
}

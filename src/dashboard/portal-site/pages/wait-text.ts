// How long a throttled developer waits, in words: "45 seconds", "1 minute", "12 minutes" (sign-in, sign-up and
// password-reset lock-outs).
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

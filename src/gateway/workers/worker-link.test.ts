// A worker's stream relay over a real MessageChannel, the other end standing in for the primary: a client's publish
// resolves only once the primary has answered that it sent the message on (the one order every worker's subscribers
// see), and a broker's message is sent without waiting for that.
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToPrimary, ToWorker } from './protocol.ts';
import { PrimaryLink } from './worker-link.ts';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

/** A link on port1; the messages the "primary" (port2) receives, and a way to answer them. */
function linkToPrimary(): { link: PrimaryLink; received: () => Promise<ToPrimary>; answer: (message: ToWorker) => void } {
  const channel = new MessageChannel();
  channels.push(channel);
  const link = new PrimaryLink(channel.port1, 1, 'epoch');
  channel.port1.on('message', (message: ToWorker) => link.answered(message));
  const inbox: ToPrimary[] = [];
  const waiting: ((message: ToPrimary) => void)[] = [];
  channel.port2.on('message', (message: ToPrimary) => {
    const taker = waiting.shift();
    if (taker) taker(message);
    else inbox.push(message);
  });
  return {
    link,
    received: () => (inbox.length > 0 ? Promise.resolve(inbox.shift()!) : new Promise((resolve) => waiting.push(resolve))),
    answer: (message) => channel.port2.postMessage(message),
  };
}

describe('a worker relaying stream messages through the primary', () => {
  it("holds a client's publish until the primary has sent the message on", async () => {
    const { link, received, answer } = linkToPrimary();
    let settled = false;
    const publish = link.streams.relay('key', 'hash', Buffer.from('first'), true).then(() => (settled = true));
    const sent = await received();
    expect(sent).toMatchObject({ t: 'streamMessage', key: 'key', hash: 'hash' });
    expect(Buffer.from((sent as { message: Uint8Array }).message).toString()).toBe('first');
    const id = (sent as { id?: number }).id;
    expect(id).toBeTypeOf('number');
    // Another message round trip through the channel: the publish is still waiting for its own answer.
    answer({ t: 'done', id: id! + 1000 });
    void link.streams.relay('key', 'hash', Buffer.from('probe'), false);
    await received();
    expect(settled).toBe(false);
    answer({ t: 'done', id: id! });
    await publish;
    expect(settled).toBe(true);
  });

  it("sends a broker's message without asking for an answer", async () => {
    const { link, received } = linkToPrimary();
    await link.streams.relay('key', 'hash', Buffer.from('from-nats'), false);
    const sent = await received();
    expect(sent).toMatchObject({ t: 'streamMessage', key: 'key' });
    expect('id' in sent && sent.id !== undefined).toBe(false);
  });
});

// A worker's stream relay over a real MessageChannel, the other end standing in for the primary: a client's publish
// resolves only once the primary has answered that it sent the message on (the one order every worker's subscribers
// see), and a broker's message is sent without waiting for that; the messages of one turn go in one batch, in order.
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamRelayed, ToPrimary, ToWorker } from './protocol.ts';
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

/** The batch a `streamMessages` carries, as key:message strings. */
function batchOf(sent: ToPrimary): string[] {
  expect(sent.t).toBe('streamMessages');
  return (sent as { messages: StreamRelayed[] }).messages.map(({ key, message }) => `${key}:${Buffer.from(message).toString()}`);
}

describe('a worker relaying stream messages through the primary', () => {
  it("holds a client's publish until the primary has sent the message on", async () => {
    const { link, received, answer } = linkToPrimary();
    let settled = false;
    const publish = link.streams.relay('key', 'hash', Buffer.from('first'), true).then(() => (settled = true));
    const sent = await received();
    expect(batchOf(sent)).toEqual(['key:first']);
    expect((sent as { messages: StreamRelayed[] }).messages[0]).toMatchObject({ key: 'key', hash: 'hash' });
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
    expect(batchOf(sent)).toEqual(['key:from-nats']);
    expect('id' in sent && sent.id !== undefined).toBe(false);
  });

  it("sends one turn's messages as one batch in the order relayed, its publishes answered together", async () => {
    const { link, received, answer } = linkToPrimary();
    const settled: string[] = [];
    const relays = [
      link.streams.relay('a', 'hash', Buffer.from('1'), false),
      link.streams.relay('a', 'hash', Buffer.from('2'), true).then(() => settled.push('2')),
      link.streams.relay('b', 'hash', Buffer.from('3'), false),
      link.streams.relay('a', 'hash', Buffer.from('4'), true).then(() => settled.push('4')),
    ];
    const sent = await received();
    expect(batchOf(sent)).toEqual(['a:1', 'a:2', 'b:3', 'a:4']);
    // The next turn's message is the next batch: the first was the whole turn.
    void link.streams.relay('a', 'hash', Buffer.from('5'), false);
    expect(batchOf(await received())).toEqual(['a:5']);
    expect(settled).toEqual([]);
    answer({ t: 'done', id: (sent as { id?: number }).id! });
    await Promise.all(relays);
    expect(settled).toEqual(['2', '4']);
  });

  it('hands a relayed batch to its subscribers in order', () => {
    const { link } = linkToPrimary();
    const heard: string[] = [];
    link.streams.follow((key, _hash, message) => heard.push(`${key}:${message.toString()}`));
    const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));
    link.streamsRelayed([
      { key: 'a', hash: 'h', message: bytes('x') },
      { key: 'b', hash: 'h', message: bytes('y') },
    ]);
    expect(heard).toEqual(['a:x', 'b:y']);
  });
});

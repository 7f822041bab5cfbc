// GraphQL subscriptions over WebSocket through a real gateway process to a real graphql-ws server (ws + graphql-ws,
// graphql-transport-ws subprotocol) on loopback: the handshake passes the API's checks (key, subprotocol) and is
// tunnelled, events flow back; a handshake without a GraphQL subprotocol or without a key never reaches the upstream.
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type * as GraphqlJs from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { classicApi, errorBody, type RunningGateway, startGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo } from '../../support/upstream.ts';
import { handshake } from '../../support/websocket-handshake.ts';

// graphql-ws loads graphql-js as Node resolves it (CommonJS); the schema must come from that same copy.
const { buildSchema } = createRequire(import.meta.url)('graphql') as typeof GraphqlJs;

const SDL = `type Query { hello: String }
type Subscription { countdown(from: Int!): Int! }
`;

interface Message {
  type: string;
  id?: string;
  payload?: unknown;
}

/** Opens a graphql-transport-ws connection, subscribes, and collects messages until `complete` (or close). */
async function subscribe(url: string, query: string, headers: Record<string, string> = {}): Promise<Message[]> {
  const socket = new WebSocket(url, 'graphql-transport-ws', { headers });
  const received: Message[] = [];
  return new Promise((resolve, reject) => {
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
    socket.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString('utf8')) as Message;
      received.push(message);
      if (message.type === 'connection_ack') socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
      if (message.type === 'complete') {
        socket.close(1000);
        resolve(received);
      }
    });
    socket.on('error', (error) => reject(new Error(`WebSocket to ${url} failed (${error.message}); received ${JSON.stringify(received)}`)));
    socket.on('close', () => reject(new Error(`WebSocket to ${url} closed before complete; received ${JSON.stringify(received)}`)));
  });
}

describe('GraphQL subscriptions over WebSocket', () => {
  let gw: RunningGateway;
  let server: WebSocketServer;
  let handshakes = 0;
  let key: string;

  beforeAll(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    server.on('connection', () => handshakes++);
    useServer(
      {
        schema: buildSchema(SDL),
        roots: {
          subscription: {
            countdown: async function* ({ from }: { from: number }) {
              for (let n = from; n >= 0; n--) yield { countdown: n };
            },
          },
        },
      },
      server,
    );
    await new Promise((resolve) => server.once('listening', resolve));
    const upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    gw = await startGateway();
    const graphql = { enabled: true, execution_mode: 'proxyOnly', version: '2', schema: SDL, proxy: { subscription_type: 'graphql-transport-ws' } };
    expect((await gw.admin('POST', '/gw/apis', classicApi('live', '/live', upstream, { use_keyless: true, graphql }))).status).toBe(200);
    expect((await gw.admin('POST', '/gw/apis', classicApi('members', '/members', upstream, { graphql }))).status).toBe(200);
    expect((await gw.admin('POST', '/gw/apis', classicApi('plain', '/plain', (await startUpstream()).url, { use_keyless: true }))).status).toBe(200);
    await gw.reload();
    const created = await gw.admin('POST', '/gw/keys/create', { access_rights: { members: { api_id: 'members', versions: [] } } });
    key = created.json<{ key: string }>().key;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const ws = (path: string) => `${gw.url.replace(/^http/, 'ws')}${path}`;

  it('tunnels a graphql-transport-ws subscription to the upstream and streams its events back', async () => {
    const messages = await subscribe(ws('/live'), 'subscription { countdown(from: 2) }');
    expect(messages).toEqual([
      { type: 'connection_ack' },
      { id: '1', type: 'next', payload: { data: { countdown: 2 } } },
      { id: '1', type: 'next', payload: { data: { countdown: 1 } } },
      { id: '1', type: 'next', payload: { data: { countdown: 0 } } },
      { id: '1', type: 'complete' },
    ]);
  });

  it('checks the key on the handshake: refused without one (never reaching the upstream), tunnelled with one', async () => {
    const before = handshakes;
    const refused = await handshake(ws('/members'), 'graphql-transport-ws');
    expect(refused).toEqual({ status: 401, body: errorBody('Authorization field missing') });
    expect(handshakes).toBe(before);
    const messages = await subscribe(ws('/members'), 'subscription { countdown(from: 0) }', { authorization: key });
    expect(messages.filter((m) => m.type === 'next')).toEqual([{ id: '1', type: 'next', payload: { data: { countdown: 0 } } }]);
    expect(handshakes).toBe(before + 1); // the upstream accepted the connection before it acknowledged it
  });

  it('refuses a handshake without a GraphQL subprotocol with 400, before the upstream', async () => {
    const before = handshakes;
    expect(await handshake(ws('/live'), 'chat')).toEqual({
      status: 400,
      body: errorBody('invalid websocket protocol for upgrading to a graphql websocket connection'),
    });
    expect(handshakes).toBe(before);
    expect((await handshake(ws('/live'), 'graphql-ws')).status).toBe(101);
  });

  it('serves an upgrade request to an API without GraphQL as the plain request it is (no tunnel), then closes', async () => {
    const plain = await handshake(ws('/plain/socket'), 'chat');
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.body) as Echo).toMatchObject({ method: 'GET', url: '/socket' });
    expect((JSON.parse(plain.body) as Echo).headers.upgrade).toBeUndefined();
  });
});

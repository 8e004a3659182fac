/**
 * The RPC port's extra routes (explorer-routes.ts): the explorer's files, the block event stream, and `GET /`
 * redirected for browsers only — JSON-RPC clients and curl keep nearcore's empty 405.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { checkExplorerSettings, type ExplorerSettings } from './explorer-settings.js';
import { startRpcServer } from './http-server.js';
import { createInMemoryRpcContext } from './in-memory-context.js';

/** What a block event carries. */
interface BlockEvent {
  height: number;
  hash: string;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Reads server-sent events until `count` have arrived, then closes the stream. */
function readEvents(
  url: string,
  count: number,
  onOpen: () => void,
): Promise<Array<{ event: string; data: BlockEvent }>> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, (res) => {
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/event-stream');
      const events: Array<{ event: string; data: BlockEvent }> = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
          if (events.length === 1) onOpen();
          if (events.length === count) {
            req.destroy();
            resolve(events);
            return;
          }
        }
      });
    });
    req.on('error', (e) => {
      if (!req.destroyed) reject(e);
    });
    req.end();
  });
}

describe('the RPC port extra routes', () => {
  const ctx = createInMemoryRpcContext({ blocks: 2 });
  const dir = mkdtempSync(join(tmpdir(), 'explorer-'));
  let url: string;
  let close: () => Promise<void>;
  let settings: ExplorerSettings = { evm: null };
  before(async () => {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    const server = await startRpcServer(ctx, {
      host: '127.0.0.1',
      port: 0,
      log: pino({ level: 'silent' }),
      explorerDir: dir,
      explorerSettings: () => settings,
    });
    url = server.url;
    close = server.close;
  });
  after(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('GET / stays an empty 405 for clients; a browser navigation is sent to /explorer/', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const r = await get(`${url}/`, accept ? { accept } : {});
      assert.equal(r.status, 405, `accept ${accept}`);
      assert.equal(r.text, '');
    }
    const browser = await get(`${url}/`, {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    assert.equal(browser.status, 302);
    assert.equal(browser.headers.location, '/explorer/');
    // HEAD / is not a navigation: unchanged.
    assert.equal((await get(`${url}/`, { accept: 'text/html' }, 'HEAD')).status, 405);
  });

  test('the explorer files are served with their content types; other names are 404', async () => {
    for (const path of ['/explorer', '/explorer/', '/explorer/index.html']) {
      const r = await get(`${url}${path}`);
      assert.equal(r.status, 200, path);
      assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(r.text, '<!doctype html><title>x</title>');
    }
    const js = await get(`${url}/explorer/app.js`);
    assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(js.text, 'console.log(1)');
    assert.equal((await get(`${url}/explorer/missing.css`)).status, 404);
    assert.equal((await get(`${url}/explorer/..%2Fpackage.json`)).status, 404);
    assert.equal((await get(`${url}/explorer/../index.html`)).status, 404);
  });

  test('/explorer/settings.json: no EVM chain, then the one handed over, read on every request', async () => {
    const none = await get(`${url}/explorer/settings.json`);
    assert.equal(none.status, 200);
    assert.equal(none.headers['content-type'], 'application/json');
    assert.equal(none.headers['cache-control'], 'no-store');
    assert.deepEqual(JSON.parse(none.text), { evm: null });
    settings = checkExplorerSettings({ evm: { rpcUrl: 'http://127.0.0.1:8545/', chainId: 31337 } });
    const evm = await get(`${url}/explorer/settings.json`, { origin: 'http://example.test' });
    assert.deepEqual(JSON.parse(evm.text), { evm: { rpcUrl: 'http://127.0.0.1:8545', chainId: 31337 } });
    assert.equal(evm.headers['access-control-allow-origin'], '*');
    assert.equal((await get(`${url}/explorer/settings.json`, {}, 'HEAD')).text, '');
    settings = { evm: null };
  });

  test('explorer settings are checked: a URL, http(s), no credentials, a positive chain id', () => {
    assert.deepEqual(checkExplorerSettings({ evm: null }), { evm: null });
    const bad: Array<[unknown, RegExp]> = [
      [{ rpcUrl: 'not a url', chainId: 1 }, /not a URL/],
      [{ rpcUrl: 'ws://127.0.0.1:8545', chainId: 1 }, /must be http\(s\)/],
      [{ rpcUrl: 'http://user:pw@127.0.0.1:8545', chainId: 1 }, /must not carry credentials/],
      [{ rpcUrl: 'http://127.0.0.1:8545', chainId: 0 }, /positive integer/],
      [{ rpcUrl: 'http://127.0.0.1:8545', chainId: '31337' }, /positive integer/],
    ];
    for (const [evm, message] of bad) {
      assert.throws(() => checkExplorerSettings({ evm } as ExplorerSettings), message);
    }
  });

  test('without a built page /explorer says how to build it', async () => {
    const server = await startRpcServer(ctx, {
      host: '127.0.0.1',
      port: 0,
      log: pino({ level: 'silent' }),
      explorerDir: join(dir, 'absent'),
    });
    try {
      const r = await get(`${server.url}/explorer`);
      assert.equal(r.status, 404);
      assert.match(r.text, /npm run build -w @shadebox\/explorer/);
    } finally {
      await server.close();
    }
  });

  test('/events/blocks sends the head, then every new block, then a rewind after a revert', async () => {
    const head = ctx.chain.head;
    const controls = (await import('./methods/sandbox.js')).devControls(ctx);
    let snapshot = '';
    const events = await readEvents(`${url}/events/blocks`, 4, () => {
      snapshot = controls.snapshot();
      void controls.produceBlocks(2).then(() => controls.revert(snapshot));
    });
    assert.deepEqual(events[0], { event: 'block', data: { height: head.height, hash: head.hash } });
    assert.deepEqual(
      events.slice(1, 3).map((e) => [e.event, e.data.height]),
      [
        ['block', head.height + 1],
        ['block', head.height + 2],
      ],
    );
    assert.deepEqual(events[3], { event: 'rewind', data: { height: head.height, hash: head.hash } });
  });

  test('open event streams do not hold up the server stopping', async () => {
    const server = await startRpcServer(ctx, { host: '127.0.0.1', port: 0, log: pino({ level: 'silent' }) });
    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const ended = new Promise<void>((resolve) => {
      httpRequest(`${server.url}/events/blocks`, (res) => {
        res.once('data', opened);
        res.on('end', resolve);
      }).end();
    });
    await open;
    await server.close();
    await ended;
  });
});

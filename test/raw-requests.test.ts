import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startTestApp, type TestApp } from './helpers.js';

// Requests refused while they are parsed (issue 11, defect 2). fetch and inject normalise
// or refuse to send these, so they go over a raw socket, byte for byte. Every answer is
// the API's one error body, `{detail, code, request_id}`, with the same id in X-Request-Id.

let t: TestApp;
let port: number;
let key: string;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
  key = (await createAccount(t.app)).key;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => t?.stop());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `request` as is and reads until the server closes or the response is complete. */
function raw(request: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response; got: ${Buffer.concat(chunks).toString('latin1').slice(0, 500)}`));
    }, 10_000);
    const parse = (): RawResponse | null => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const body = text.slice(end + 4);
      if (headers['content-length'] && Buffer.byteLength(body) < Number(headers['content-length'])) return null;
      return { status: Number(statusLine.split(' ')[1]), headers, body };
    };
    const finish = () => {
      const res = parse();
      if (!res) return false;
      clearTimeout(timer);
      socket.destroy();
      resolve(res);
      return true;
    };
    socket.on('data', (d) => {
      chunks.push(d);
      finish();
    });
    socket.on('error', () => {}); // the server may reset after answering
    socket.on('close', () => {
      if (!finish()) {
        clearTimeout(timer);
        reject(new Error(`closed without a complete response: ${Buffer.concat(chunks).toString('latin1').slice(0, 500)}`));
      }
    });
    socket.write(request);
  });
}

function expectErrorBody(res: RawResponse, status: number, detail: RegExp) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body);
  expect(Object.keys(body)).toEqual(['detail', 'code', 'request_id']);
  expect(body.detail).toMatch(detail);
  expect(body.code).toBe('invalid_request');
  expect(res.headers['x-request-id']).toBe(body.request_id);
}

describe('requests refused by the HTTP parser answer {detail, code, request_id}', () => {
  it('a 20,000-character X-API-Key → 431', async () => {
    const res = await raw(`GET /v1/projects HTTP/1.1\r\nHost: x\r\nX-API-Key: ${'k'.repeat(20_000)}\r\n\r\n`);
    expectErrorBody(res, 431, /^Request headers are too large/);
  });

  it('a 100 KB query string → 431', async () => {
    const res = await raw(`GET /v1/projects?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectErrorBody(res, 431, /URL and query string/);
  });

  it('an unknown method (FOO) → 400', async () => {
    const res = await raw(`FOO /v1/projects HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectErrorBody(res, 400, /^Unknown HTTP method$/);
  });

  it.each([['CONNECT example.com:443'], ['CONNECT 127.0.0.1:22'], ['CONNECT /v1/projects']])('%s → 400 as an unknown method, not a closed socket', async (line) => {
    const res = await raw(`${line} HTTP/1.1\r\nHost: example.com:443\r\n\r\n`);
    expectErrorBody(res, 400, /^Unknown HTTP method$/);
  });

  it.each([['abc'], ['-1'], ['1, 2']])('Content-Length: %s → 400', async (length) => {
    const res = await raw(`POST /v1/account/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{}`);
    expectErrorBody(res, 400, /^Invalid Content-Length header$/);
  });

  it('both Content-Length and Transfer-Encoding → 400', async () => {
    const res = await raw(
      `POST /v1/account/create HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    );
    expectErrorBody(res, 400, /Content-Length|Transfer-Encoding/);
  });

  it('a control character in a header value → 400', async () => {
    const res = await raw(`GET /v1/projects HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key.slice(0, 5)}\x01${key.slice(5)}\r\n\r\n`);
    expectErrorBody(res, 400, /^Invalid character in a header/);
  });

  it('a control character in a header name → 400', async () => {
    const res = await raw(`GET /v1/projects HTTP/1.1\r\nHost: x\r\nX-Bad\x7fName: 1\r\n\r\n`);
    expectErrorBody(res, 400, /^Invalid character in a header/);
  });

  it('raw non-ASCII bytes in the path → 400', async () => {
    const res = await raw(Buffer.concat([Buffer.from('GET /v1/proj'), Buffer.from('é', 'utf8'), Buffer.from('cts HTTP/1.1\r\nHost: x\r\n\r\n')]));
    expectErrorBody(res, 400, /^Invalid character in the URL/);
  });

  it('garbage instead of a request line → 400', async () => {
    const res = await raw('\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n');
    expectErrorBody(res, 400, /./);
  });
});

describe('requests Fastify parses but cannot route or decode', () => {
  it('a method Node knows but no route has (PROPFIND) → 404 {detail, code, request_id}', async () => {
    const res = await raw(`PROPFIND /v1/projects HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(404);
    const body = JSON.parse(res.body);
    expect(Object.keys(body)).toEqual(['detail', 'code', 'request_id']);
    expect(res.headers['x-request-id']).toBe(body.request_id);
  });

  it('a badly percent-encoded path → 400 {detail, code, request_id}', async () => {
    const res = await raw(`GET /v1/projects/%E0%A4%A HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`);
    expectErrorBody(res, 400, /^Malformed URL/);
  });

  it('a well-formed request on the same server still works', async () => {
    const res = await raw(`GET /v1/projects HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`);
    expect(res.status, res.body).toBe(200);
  });
});

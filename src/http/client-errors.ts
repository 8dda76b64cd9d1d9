import crypto from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from '../lib/errors.js';

// Requests that Node's HTTP parser refuses before Fastify sees them (an unknown method, a
// bad Content-Length, a control character in a header, raw non-ASCII in the URL, headers
// or a URL over the size limit). Fastify's own handler answers these with its
// `{"error","message","statusCode"}` body; here they get the one error body of the API,
// `{detail, code, request_id}`, and the id in X-Request-Id. They carry no rate-limit
// headers: nothing was parsed to count them by (no trusted client address behind a proxy).

interface Refusal {
  status: number;
  detail: string;
  code: ErrorCode;
}

const MAX_HEADER_KB = Math.round(http.maxHeaderSize / 1024);

/** What a parser error code means to the client. */
export function refusalOf(code: string | undefined): Refusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        detail: `Request headers are too large: the request line (URL and query string) and headers must fit in ${MAX_HEADER_KB} KB`,
        code: 'invalid_request',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, detail: 'The request was not received in time', code: 'invalid_request' };
    case 'HPE_INVALID_METHOD':
      return { status: 400, detail: 'Unknown HTTP method', code: 'invalid_request' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, detail: 'Invalid Content-Length header', code: 'invalid_request' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, detail: 'Invalid Transfer-Encoding or chunked body', code: 'invalid_request' };
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return { status: 400, detail: 'Invalid character in a header name or value', code: 'invalid_request' };
    case 'HPE_INVALID_URL':
      return { status: 400, detail: 'Invalid character in the URL (anything but printable ASCII must be percent-encoded)', code: 'invalid_request' };
    case 'HPE_INVALID_VERSION':
      return { status: 400, detail: 'Unsupported HTTP version', code: 'invalid_request' };
    default:
      return { status: 400, detail: 'Malformed HTTP request', code: 'invalid_request' };
  }
}

/** Fastify's `clientErrorHandler` (bound to the instance): a JSON error, then the connection is closed. */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const requestId = crypto.randomUUID();
  const { status, detail, code } = refusalOf(err.code);
  // The raw bytes (err.rawPacket) are never logged: they may hold an API key.
  this.log.info({ request_id: requestId, status, parser_error: err.code ?? null }, 'request refused by the HTTP parser');
  writeRefusal(socket, requestId, { status, detail, code });
  socket.destroy(err);
}

/**
 * HTTP CONNECT (a proxy tunnel): Node hands it to the server's 'connect' listeners, never to
 * Fastify, and closes the socket in silence when there is none. This server is no proxy: the
 * method is answered as an unknown one (FOO) is, with the API's error body.
 */
export function registerConnectRefusal(app: FastifyInstance): void {
  app.server.on('connect', (_req: http.IncomingMessage, socket: Socket) => {
    const requestId = crypto.randomUUID();
    app.log.info({ request_id: requestId, status: 400, method: 'CONNECT' }, 'CONNECT refused: not a proxy');
    socket.on('error', () => {}); // the client may reset first
    writeRefusal(socket, requestId, refusalOf('HPE_INVALID_METHOD'));
    socket.end();
  });
}

function writeRefusal(socket: Socket, requestId: string, { status, detail, code }: Refusal): void {
  if (socket.writable) {
    const body = JSON.stringify({ detail, code, request_id: requestId });
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
}

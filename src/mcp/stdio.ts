import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type JSONRPCMessage, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';

/** The JSON-RPC error code of a transport failure (the server never answered the request). */
const UPSTREAM_FAILED = -32000;

function explain(err: unknown, url: URL): string {
  if (err instanceof StreamableHTTPError) {
    // The server's body is `{detail, code, request_id}`; the SDK quotes it in the message.
    const detail = /"detail":"((?:[^"\\]|\\.)*)"/.exec(err.message)?.[1];
    return `Sightline at ${url.origin} answered ${err.code}: ${detail ? JSON.parse(`"${detail}"`) : err.message}`;
  }
  return `Sightline at ${url.origin} is not reachable: ${(err as Error).message}`;
}

/**
 * `sightline mcp`: MCP over stdio for desktop clients, as a proxy to the Streamable HTTP
 * endpoint of a running Sightline. Messages pass through unchanged in both directions, so
 * the tools, their schemas, scopes, limits and errors are the server's own; a request
 * the server cannot be reached for is answered here with a JSON-RPC error.
 */
export async function runStdioProxy(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const base = env.SIGHTLINE_URL ?? 'http://127.0.0.1:3000';
  const key = env.SIGHTLINE_API_KEY;
  if (!key) throw new Error('SIGHTLINE_API_KEY is not set: give the API key the MCP client acts with');
  const url = new URL('/mcp', base);
  const http = new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-api-key': key } } });
  const stdio = new StdioServerTransport();
  // The ids of initialize requests on their way, to learn the protocol version they settle on.
  const initializing = new Set<string | number>();

  http.onmessage = (msg: JSONRPCMessage) => {
    if (isJSONRPCResultResponse(msg) && initializing.delete(msg.id)) {
      const version = (msg.result as { protocolVersion?: string }).protocolVersion;
      if (version) http.setProtocolVersion(version);
    }
    void stdio.send(msg);
  };
  http.onerror = () => {
    /* each failed send is answered below; a lost GET stream needs no answer */
  };
  stdio.onmessage = (msg: JSONRPCMessage) => {
    if (isJSONRPCRequest(msg) && msg.method === 'initialize') initializing.add(msg.id);
    http.send(msg).catch((err: unknown) => {
      if (!isJSONRPCRequest(msg)) return;
      void stdio.send({ jsonrpc: '2.0', id: msg.id, error: { code: UPSTREAM_FAILED, message: explain(err, url) } });
    });
  };
  const closed = new Promise<void>((resolve) => {
    stdio.onclose = () => resolve();
    process.stdin.on('end', () => resolve());
  });
  await http.start();
  await stdio.start();
  await closed;
  await http.close();
}

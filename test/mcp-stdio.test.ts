// `sightline mcp` (the package's bin, from dist/) over stdio, through the SDK's own client:
// the same checks as over Streamable HTTP, through the proxy to a running Sightline.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TOOLS, checkErrors, checkRateLimit, checkReads, checkWrites, READ_TOOLS, seed, unseed, type Seeded } from './mcp-harness.js';

const CLI = path.resolve(import.meta.dirname, '..', 'dist', 'cli.js');
let s: Seeded;
const clients: Client[] = [];

async function connect(key: string, url = s.base): Promise<Client> {
  const c = new Client({ name: 'sightline-stdio-test', version: '1.0.0' });
  const env = { PATH: process.env.PATH ?? '', SIGHTLINE_URL: url, SIGHTLINE_API_KEY: key };
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env, stderr: 'pipe' }));
  clients.push(c);
  return c;
}

beforeAll(async () => {
  s = await seed();
}, 180_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await unseed(s);
});

describe('sightline mcp (stdio)', { timeout: 60_000 }, () => {
  it('initializes through the proxy and lists the tools of the key: all for an admin key, the read tools for a viewer', async () => {
    const admin = await connect(s.acct.key);
    expect(admin.getServerVersion()?.name).toBe('sightline');
    expect((await admin.listTools()).tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
    const viewer = await connect(s.viewerKey);
    expect((await viewer.listTools()).tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());
  });

  it('answers every read tool with the REST body of the same call', async () => {
    await checkReads(s, connect);
  });

  it('runs every write tool', async () => {
    await checkWrites(s, connect);
  });

  it("gives REST's detail texts as tool errors", async () => {
    await checkErrors(s, connect);
  });

  it('passes the rate limit through as a tool error with the wait in seconds', async () => {
    await checkRateLimit(s, connect);
  });

  it('answers with a JSON-RPC error, not a crash, when the key is refused or Sightline is not reachable', async () => {
    await expect(connect('sl_live_not_a_key')).rejects.toThrow(/answered 401: Invalid API key/);
    await expect(connect(s.acct.key, 'http://127.0.0.1:9')).rejects.toThrow(/is not reachable/);
  });
});

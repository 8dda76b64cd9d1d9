// `npm run openapi:types`: writes web/src/generated/api.ts, the TypeScript types of the
// service's OpenAPI document made by openapi-typescript, which openapi-fetch uses in
// test/openapi-client.test.ts. Run it after changing a route or a schema and commit the
// result: that test fails while the committed file differs from what this produces.
//
// The document comes from the service itself, built in memory (an embedded store in
// memory, no job workers, nothing listening) and asked for GET /v1/openapi.json.
// The output is a .ts file (types only) rather than a .d.ts, so that `tsc --noEmit`
// really checks it: the project's skipLibCheck skips every .d.ts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { createRuntime } from '../src/runtime.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const API_TYPES_FILE = path.join(root, 'web', 'src', 'generated', 'api.ts');

/** GET /v1/openapi.json of a service started in memory for the purpose. */
export async function buildOpenapiDocument(): Promise<OpenAPI3> {
  // No environment: the document must not depend on the machine that generates it.
  const config = loadConfig({}, { memoryStore: true, logLevel: 'silent', role: 'api' });
  const runtime = await createRuntime(config, pino({ level: 'silent' }));
  try {
    if (!runtime.app) throw new Error('the runtime built no HTTP API');
    const res = await runtime.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${res.statusCode}: ${res.body}`);
    return res.json();
  } finally {
    await runtime.stop();
  }
}

/** The generated source for a document: openapi-typescript's defaults, plus its header. */
export async function apiTypesSource(doc: OpenAPI3): Promise<string> {
  // openapi-typescript changes nothing in the document, but a copy costs little and keeps
  // the caller's object safe from any future version that would.
  const ast = await openapiTS(structuredClone(doc), { silent: true });
  return COMMENT_HEADER + astToString(ast);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const source = await apiTypesSource(await buildOpenapiDocument());
  writeFileSync(API_TYPES_FILE, source);
  console.log(`wrote ${path.relative(process.cwd(), API_TYPES_FILE)} (${source.split('\n').length} lines)`);
}

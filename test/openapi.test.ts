import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/lib/errors.js';
import { startTestApp, type TestApp } from './helpers.js';
import { routeName } from './route-samples.js';

// GET /v1/openapi.json is what client generators read: it must be a valid OpenAPI 3.1
// document in which every `$ref` resolves, checked here by a real validator
// (@apidevtools/swagger-parser) and by walking the document. test/openapi-client.test.ts
// proves it usable: a client generated from it calls the running service.

let t: TestApp;
let doc: OpenAPIV3_1.Document;
beforeAll(async () => {
  t = await startTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => t?.stop());

/** Every `$ref` in a JSON value, with the JSON pointer of the object that holds it. */
function refsOf(value: unknown, at = '#'): Array<{ ref: string; at: string }> {
  if (value === null || typeof value !== 'object') return [];
  const own = typeof (value as { $ref?: unknown }).$ref === 'string' ? [{ ref: (value as { $ref: string }).$ref, at }] : [];
  return own.concat(Object.entries(value).flatMap(([k, v]) => refsOf(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`)));
}

/** What a local reference (`#/a/b`) points at in the document; undefined when nothing. */
function target(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

type Operation = OpenAPIV3_1.OperationObject;
const operations = (): Array<[string, Operation]> =>
  Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item ?? {})
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => [`${method.toUpperCase()} ${path}`, op as Operation] as [string, Operation]),
  );

/** A response object, following its `$ref` (shared responses live in components.responses). */
const responseOf = (res: OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject): OpenAPIV3_1.ResponseObject =>
  ('$ref' in res ? target(res.$ref) : res) as OpenAPIV3_1.ResponseObject;
const jsonSchemaOf = (res: OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject) =>
  responseOf(res).content?.['application/json']?.schema as (OpenAPIV3_1.SchemaObject & { $ref?: string }) | undefined;

describe('validity', () => {
  it('passes swagger-parser: the OpenAPI 3.1 schema, then every $ref dereferenced', async () => {
    // Both calls change the object they are given: each works on its own copy.
    const validated = await SwaggerParser.validate(structuredClone(doc));
    expect((validated as OpenAPIV3_1.Document).openapi).toMatch(/^3\.1\.\d+$/);
    const dereferenced = await SwaggerParser.dereference(structuredClone(doc));
    expect(refsOf(dereferenced)).toEqual([]);
  });

  it('every $ref points at something in the document', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(20);
    expect(refs.filter((r) => target(r.ref) === undefined)).toEqual([]);
  });

  it('every component schema is referenced (no orphan input or output variant)', () => {
    const used = new Set(refsOf(doc).map((r) => r.ref));
    const orphans = Object.keys(doc.components?.schemas ?? {}).filter((id) => !used.has(`#/components/schemas/${id}`));
    expect(orphans).toEqual([]);
  });

  it('no two zod schemas of the routes share a component id', () => {
    // Zod's registry keeps the last schema given an id, so a second `.meta({id: 'X'})`
    // would silently document the wrong shape wherever the first is used. Converting
    // every route schema in one pass makes zod compare them all (it throws on a clash).
    const all = t.app.routeTable.flatMap((r) => {
      const s = r.schema as Record<string, unknown> | undefined;
      return [s?.body, s?.querystring, s?.params, ...Object.values((s?.response ?? {}) as Record<string, unknown>)];
    });
    const schemas = all.filter((s): s is z.ZodType => s instanceof z.ZodType);
    expect(schemas.length).toBeGreaterThan(100);
    const together = z.object(Object.fromEntries(schemas.map((s, i) => [`s${i}`, s])));
    for (const io of ['input', 'output'] as const) {
      expect(() => z.toJSONSchema(together, { io, unrepresentable: 'any', target: 'draft-2020-12' })).not.toThrow();
    }
  });
});

describe('operations: ids, tags, servers (issue 25)', () => {
  it('every operation has a camelCase operationId, and no two share one', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(70);
    const missing = ops.filter(([, op]) => !op.operationId).map(([name]) => name);
    expect(missing).toEqual([]);
    const notCamel = ops.filter(([, op]) => !/^[a-z][a-zA-Z0-9]*$/.test(op.operationId ?? '')).map(([name, op]) => `${name}: ${op.operationId}`);
    expect(notCamel).toEqual([]);
    const seen = new Map<string, string>();
    const repeated: string[] = [];
    for (const [name, op] of ops) {
      const id = op.operationId ?? '';
      if (seen.has(id)) repeated.push(`${id}: ${seen.get(id)} and ${name}`);
      seen.set(id, name);
    }
    expect(repeated).toEqual([]);
  });

  it('each id is written in its route, not made up from the path (so it stays when a path changes)', () => {
    const fromPath = /^(get|post|put|patch|delete)V1/;
    const wrong = t.app.routeTable
      .filter((r) => !r.schema?.hide)
      .filter((r) => {
        const id = (r.schema as { operationId?: unknown } | undefined)?.operationId;
        return typeof id !== 'string' || fromPath.test(id);
      })
      .map(routeName);
    expect(wrong).toEqual([]);
  });

  it('every operation has a tag, and a summary a generated client can use as its doc comment', () => {
    const untagged = operations().filter(([, op]) => !op.tags?.length || !op.summary).map(([name]) => name);
    expect(untagged).toEqual([]);
  });

  it('every operation documents 414 (an over-long path segment) and 429', () => {
    const missing = operations().flatMap(([name, op]) => ['414', '429'].filter((s) => !op.responses?.[s]).map((s) => `${name} ${s}`));
    expect(missing).toEqual([]);
  });

  it('servers is PUBLIC_URL, not the request Host', async () => {
    const forged = await t.app.inject({ method: 'GET', url: '/v1/openapi.json', headers: { host: 'attacker.example' } });
    expect(forged.json().servers).toEqual([expect.objectContaining({ url: t.config.publicUrl })]);
    expect(doc.servers?.[0]?.url).toMatch(/^https?:\/\/[^/]+/);
  });

  it('an over-long path segment really is a 414 with the error body', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/projects/${'a'.repeat(201)}` });
    expect(res.statusCode).toBe(414);
    expect(Object.keys(res.json())).toEqual(['detail', 'code', 'request_id']);
  });
});

describe('errors', () => {
  it('the error body is one component: detail, an optional code of lib/errors, an optional request_id', () => {
    const schemas = doc.components?.schemas ?? {};
    const error = schemas.Error as OpenAPIV3_1.SchemaObject;
    expect(error.type).toBe('object');
    expect(error.required).toEqual(['detail']);
    expect(error.properties).toEqual({
      detail: { type: 'string' },
      code: { type: 'string', enum: [...ERROR_CODES] },
      request_id: { type: 'string' },
    });
    // No second copy under another name (an input variant, an inlined duplicate).
    const copies = Object.entries(schemas).filter(([, s]) => JSON.stringify((s as OpenAPIV3_1.SchemaObject).properties) === JSON.stringify(error.properties));
    expect(copies.map(([id]) => id)).toEqual(['Error']);
  });

  it('every 4xx and 5xx response of every operation is the Error component', () => {
    const wrong: string[] = [];
    let count = 0;
    for (const [name, op] of operations()) {
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        if (!/^[45]/.test(status)) continue;
        count++;
        if (jsonSchemaOf(res)?.$ref !== '#/components/schemas/Error') wrong.push(`${name} ${status}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(count).toBeGreaterThan(100);
  });

  it('documents the statuses its auth, scope and path give every route', () => {
    const missing: string[] = [];
    for (const r of t.app.routeTable) {
      if (r.url === '/v1/openapi.json') continue;
      const op = doc.paths?.[r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[r.method.toLowerCase() as 'get'] as Operation;
      const expected = [
        '429', // limited by key or by address, every route
        '503', // the store is unreachable
        ...(r.auth !== 'public' ? ['401'] : []),
        ...(op.requestBody || op.parameters?.length ? ['400'] : []),
        ...(op.requestBody ? ['413', '415'] : []),
        ...(r.scope === 'admin' ? ['403'] : []), // a read-only key
        ...(r.auth === 'key' && r.url.includes(':project_id') ? ['403', '404'] : []), // another team's project, none
        ...(/:[a-z_]+_id/.test(r.url) ? ['404'] : []),
      ];
      const statuses = Object.keys(op.responses ?? {});
      for (const s of new Set(expected)) if (!statuses.includes(s)) missing.push(`${routeName(r)} ${s}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('headers', () => {
  const headersOf = (res: OpenAPIV3_1.ResponseObject) =>
    Object.fromEntries(Object.entries(res.headers ?? {}).map(([name, h]) => [name, ('$ref' in h ? target(h.$ref) : h) as OpenAPIV3_1.HeaderObject]));

  it('every response documents the limit headers and X-Request-Id; 429 and 503 add Retry-After', () => {
    const wrong: string[] = [];
    for (const [name, op] of operations()) {
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        const headers = headersOf(responseOf(res));
        const expected = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-Credit-Available', ...(['429', '503'].includes(status) ? ['Retry-After'] : [])];
        for (const h of expected) if (!headers[h]?.description || !headers[h]?.schema) wrong.push(`${name} ${status} ${h}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the headers documented as required are on real answers, a success and an error', async () => {
    const required = Object.entries(doc.components?.headers ?? {})
      .filter(([, h]) => (h as OpenAPIV3_1.HeaderObject).required)
      .map(([name]) => name.toLowerCase());
    expect(required).toEqual(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-credit-available']);
    const ok = await t.app.inject({ method: 'POST', url: '/v1/account/create', payload: { email: `openapi-${Date.now()}@example.com` } });
    const error = await t.app.inject({ method: 'GET', url: '/v1/projects' });
    expect([ok.statusCode, error.statusCode]).toEqual([200, 401]);
    for (const res of [ok, error]) for (const h of required) expect(String(res.headers[h]), h).toMatch(/^\d+$/);
  });
});

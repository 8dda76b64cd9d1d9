import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PLAIN_JSON_ROUTES, routeSerializerCompiler } from './serializer.js';

// The plain serializer (JSON.stringify alone) is for GET's 200 answers on PLAIN_JSON_ROUTES,
// whose bodies src/modules/analytics/analytics.test.ts holds to zod's serialization. Any
// other answer keeps zod's pass, which leaves out what the schema does not list.
describe('routeSerializerCompiler', () => {
  const schema = z.object({ success: z.literal(true), data: z.object({ id: z.string() }) });
  const answer = { success: true, data: { id: 'p1', internal: 'not in the schema' } };
  const serialize = (method: string, url: string, httpStatus = '200') =>
    routeSerializerCompiler({ schema, method, url, httpStatus } as Parameters<typeof routeSerializerCompiler>[0]) as (payload: unknown) => string | Buffer;
  const text = (out: string | Buffer) => (typeof out === 'string' ? out : out.toString('utf8'));

  it("GET's 200 on a plain route is the value's JSON as it is", () => {
    const url = [...PLAIN_JSON_ROUTES][0];
    expect(text(serialize('GET', url)(answer))).toBe(JSON.stringify(answer));
  });

  it('a change on the same path, another status or another route goes through zod', () => {
    const url = '/v1/projects/:project_id';
    expect(PLAIN_JSON_ROUTES.has(url)).toBe(true);
    const checked = JSON.stringify({ success: true, data: { id: 'p1' } });
    expect(text(serialize('PATCH', url)(answer))).toBe(checked);
    expect(text(serialize('DELETE', url)(answer))).toBe(checked);
    expect(text(serialize('GET', url, '201')(answer))).toBe(checked);
    expect(PLAIN_JSON_ROUTES.has('/v1/projects/:project_id/competitors')).toBe(false);
    expect(text(serialize('GET', '/v1/projects/:project_id/competitors')(answer))).toBe(checked);
  });
});

import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../src/mcp/server.js';

// MCP names JSON Schema 2020-12 as the dialect of tool schemas. Every registered tool (the
// list is read from the server, so tools added later are covered) must give schemas that
// Ajv's 2020-12 build compiles in strict mode, and arguments named in one convention:
// snake_case, at every level of the input schema.

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Every property name a schema declares, with the path to it (`body.targets[].type`). */
function propertyNames(schema: unknown, at = ''): Array<{ name: string; at: string }> {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((s, i) => propertyNames(s, `${at}[${i}]`));
  const node = schema as Record<string, unknown>;
  const own = Object.keys((node.properties as Record<string, unknown> | undefined) ?? {}).map((name) => ({ name, at: at ? `${at}.${name}` : name }));
  const inner = Object.entries(node).flatMap(([k, v]) =>
    k === 'properties'
      ? Object.entries(v as Record<string, unknown>).flatMap(([name, s]) => propertyNames(s, at ? `${at}.${name}` : name))
      : k === 'enum' || k === 'const' || k === 'default' || k === 'examples'
        ? []
        : propertyNames(v, at),
  );
  return own.concat(inner);
}

/** Ajv's 2020-12 build, strict: an unknown keyword (a draft-07 leftover) is an error, not a silent pass. */
function compiler() {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, validateFormats: false });
  // Keywords MCP clients and zod use for people, not for validation.
  ajv.addVocabulary(['x-sightline']);
  return ajv;
}

describe('every registered MCP tool', () => {
  it('there are tools to check', () => {
    expect(TOOLS.length).toBeGreaterThan(40);
  });

  it.each(TOOLS.map((t) => [t.spec.name, t] as const))('%s: input and output schemas compile under JSON Schema 2020-12', (_name, t) => {
    const ajv = compiler();
    for (const [which, schema] of [
      ['input', t.inputSchema],
      ['output', t.outputSchema],
    ] as const) {
      expect(schema.type, which).toBe('object');
      expect(schema, which).not.toHaveProperty('definitions'); // draft-07's name for $defs
      expect(JSON.stringify(schema), which).not.toContain('#/definitions/');
      expect(() => ajv.compile(schema), which).not.toThrow();
    }
  });

  it.each(TOOLS.map((t) => [t.spec.name, t] as const))('%s: every argument, at every level, is snake_case', (_name, t) => {
    const wrong = propertyNames(t.inputSchema).filter((p) => !SNAKE.test(p.name));
    expect(wrong.map((p) => p.at)).toEqual([]);
    expect(t.inputSchema.additionalProperties).toBe(false);
  });
});

describe('a tuple is prefixItems, as 2020-12 spells it (draft-07 wrote an array of items)', () => {
  /** The first subschema declared under property `name`, anywhere in `schema`. */
  function propertySchema(schema: unknown, name: string): unknown {
    if (schema === null || typeof schema !== 'object') return undefined;
    const props = (schema as { properties?: Record<string, unknown> }).properties;
    if (props && name in props) return props[name];
    for (const v of Object.values(schema)) {
      const found = propertySchema(v, name);
      if (found) return found;
    }
    return undefined;
  }

  it('get_overview: visibility_ci (the schema 2020-12 failed on) checks both members of the pair', () => {
    const overview = TOOLS.find((t) => t.spec.name === 'get_overview');
    expect(overview).toBeDefined();
    expect(JSON.stringify(overview?.outputSchema)).not.toMatch(/"items":\[/);
    const ci = propertySchema(overview?.outputSchema, 'visibility_ci') as object;
    expect(JSON.stringify(ci)).toContain('"prefixItems"');
    const check = compiler().compile(ci);
    expect([check([1.5, 2]), check(null), check(['a', 2]), check([1, 2, 3]), check([1])]).toEqual([true, true, false, false, false]);
  });
});

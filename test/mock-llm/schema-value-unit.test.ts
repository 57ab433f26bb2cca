import { describe, expect, it } from 'vitest';
import { schemaValue, toolArguments } from '../../workers/mock-llm/src/schema-value';

describe('schemaValue', () => {
  it('fills every property of an object, required or not, by type', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        age: { type: 'integer', minimum: 18 },
        score: { type: 'number', exclusiveMinimum: 1 },
        ok: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
        nothing: { type: 'null' },
      },
      required: ['name'],
    };
    expect(schemaValue(schema)).toEqual({
      name: 'string',
      age: 18,
      score: 1.5,
      ok: true,
      tags: ['string', 'string'],
      nothing: null,
    });
  });

  it('takes the first enum value, const, first anyOf/oneOf branch, and the non-null type of a type list', () => {
    expect(schemaValue({ enum: ['b', 'a'] })).toBe('b');
    expect(schemaValue({ const: 42 })).toBe(42);
    expect(schemaValue({ anyOf: [{ type: 'null' }, { type: 'integer' }] })).toBe(0);
    expect(schemaValue({ oneOf: [{ type: 'boolean' }, { type: 'string' }] })).toBe(true);
    expect(schemaValue({ type: ['null', 'string'] })).toBe('string');
    expect(schemaValue({ type: 'string', nullable: true })).toBe('string');
  });

  it('respects string and array bounds and a negative maximum', () => {
    expect(schemaValue({ type: 'string', minLength: 10 })).toHaveLength(10);
    expect(schemaValue({ type: 'string', maxLength: 3 })).toBe('str');
    expect(schemaValue({ type: 'array', items: { type: 'integer' } })).toEqual([0]);
    expect(schemaValue({ type: 'integer', maximum: -5 })).toBe(-5);
    expect(schemaValue({ type: 'integer', exclusiveMaximum: 0 })).toBe(-1);
  });

  it('follows $ref into $defs and definitions, and ends recursive schemas', () => {
    const schema = {
      type: 'object',
      properties: { node: { $ref: '#/$defs/Node' }, kind: { $ref: '#/definitions/Kind' } },
      $defs: {
        Node: {
          type: 'object',
          properties: { value: { type: 'integer' }, next: { $ref: '#/$defs/Node' } },
          required: ['value'],
        },
      },
      definitions: { Kind: { enum: ['leaf'] } },
    };
    const value = schemaValue(schema) as { node: { value: number }; kind: string };
    expect(value.kind).toBe('leaf');
    expect(value.node.value).toBe(0);
    expect(JSON.stringify(value).length).toBeLessThan(2000);
  });

  it("reads Google's upper-case types and merges allOf", () => {
    expect(schemaValue({ type: 'OBJECT', properties: { n: { type: 'INTEGER' } } })).toEqual({ n: 0 });
    expect(
      schemaValue({
        allOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { type: 'boolean' } } }],
      }),
    ).toEqual({ a: 'string', b: true });
  });

  it('gives tool arguments as an object, {} for a schema that is not one', () => {
    expect(toolArguments({ type: 'object', properties: { city: { type: 'string' } } })).toEqual({
      city: 'string',
    });
    expect(toolArguments(undefined)).toEqual({});
    expect(toolArguments({ type: 'string' })).toEqual({});
  });
});

/**
 * OTLP/JSON attribute values (pure): a KeyValue list built from plain values,
 * each typed as the protocol's AnyValue. Integers are sent as decimal strings
 * (the protobuf JSON form of int64), other numbers as doubles; null and
 * undefined values are left out.
 */

export type AnyValue =
  | { readonly stringValue: string }
  | { readonly boolValue: boolean }
  | { readonly intValue: string }
  | { readonly doubleValue: number }
  | { readonly arrayValue: { readonly values: readonly AnyValue[] } };

export interface KeyValue {
  readonly key: string;
  readonly value: AnyValue;
}

export type Plain = string | number | boolean | readonly string[] | null | undefined;

export function anyValue(value: string | number | boolean | readonly string[]): AnyValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  }
  return { arrayValue: { values: value.map((v) => ({ stringValue: v })) } };
}

/** The attributes of `record` in its key order, without null and undefined values. */
export function keyValues(record: Readonly<Record<string, Plain>>): KeyValue[] {
  const out: KeyValue[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (value === null || value === undefined) continue;
    out.push({ key, value: anyValue(value) });
  }
  return out;
}

/** A double that must stay a double (a cost of 1 USD is not the integer 1). */
export function doubleValue(key: string, value: number): KeyValue {
  return { key, value: { doubleValue: value } };
}

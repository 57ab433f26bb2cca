/**
 * A faithful fake of a Vectorize (V2) index binding, enforcing the documented
 * limits (developers.cloudflare.com/vectorize/platform/limits and
 * /reference/metadata-filtering): fixed dimensions, ids and namespaces of at
 * most 64 bytes, metadata of at most 10 KiB with keys that are non-empty and
 * free of `.`, `"` and a leading `$`, upserts of at most 1000 vectors, topK
 * 1–100 and at most 20 when values or all metadata are returned, filters that
 * are non-empty objects under 2048 bytes of JSON using $eq $ne $lt $lte $gt
 * $gte $in $nin, applied after the namespace. String metadata is filtered on
 * its first 64 bytes, as the service indexes it. Values are stored as float32.
 *
 * One deliberate difference: a filter on a property with no metadata index
 * throws here, where the service silently matches nothing (which would make a
 * misconfigured cache silently never hit). Writes are visible at once, where
 * the service takes a few seconds.
 */

type Primitive = string | number | boolean;
type IndexType = 'string' | 'number' | 'boolean';
type Row = {
  id: string;
  values: Float32Array;
  namespace?: string;
  metadata?: Record<string, VectorizeVectorMetadata>;
};

const MAX_ID_BYTES = 64;
const MAX_NAMESPACE_BYTES = 64;
const MAX_METADATA_BYTES = 10 * 1024;
const MAX_UPSERT = 1000;
const MAX_TOP_K = 100;
const MAX_TOP_K_WITH_DATA = 20;
const MAX_FILTER_BYTES = 2048;
const INDEXED_STRING_BYTES = 64;
const OPS = new Set(['$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$in', '$nin']);

const bytes = (s: string) => new TextEncoder().encode(s).byteLength;
const fail = (code: number, message: string) => new Error(`VECTOR_ERROR (code = ${code}): ${message}`);

export interface FakeVectorizeOptions {
  readonly dimensions: number;
  /** Properties with a metadata index, and their types. */
  readonly metadataIndexes: Readonly<Record<string, IndexType>>;
}

export class FakeVectorize {
  readonly rows = new Map<string, Row>();
  constructor(private readonly options: FakeVectorizeOptions) {}

  async upsert(vectors: VectorizeVector[]): Promise<VectorizeAsyncMutation> {
    if (vectors.length === 0 || vectors.length > MAX_UPSERT)
      throw fail(40007, `upsert takes 1 to ${MAX_UPSERT} vectors, got ${vectors.length}`);
    for (const v of vectors) {
      if (typeof v.id !== 'string' || v.id === '' || bytes(v.id) > MAX_ID_BYTES)
        throw fail(40008, `invalid vector id '${v.id}': 1 to ${MAX_ID_BYTES} bytes`);
      this.checkDimensions(v.values);
      if (v.namespace !== undefined && (v.namespace === '' || bytes(v.namespace) > MAX_NAMESPACE_BYTES))
        throw fail(40009, `namespace over ${MAX_NAMESPACE_BYTES} bytes`);
      if (v.metadata !== undefined) {
        for (const key of Object.keys(v.metadata)) {
          if (key === '' || key.includes('.') || key.includes('"') || key.startsWith('$'))
            throw fail(40010, `invalid metadata key '${key}'`);
        }
        if (bytes(JSON.stringify(v.metadata)) > MAX_METADATA_BYTES)
          throw fail(40011, `metadata over ${MAX_METADATA_BYTES} bytes`);
      }
    }
    for (const v of vectors)
      this.rows.set(v.id, {
        id: v.id,
        values: Float32Array.from(v.values),
        namespace: v.namespace,
        metadata: v.metadata,
      });
    return { mutationId: crypto.randomUUID() };
  }

  async query(
    vector: Float32Array | number[],
    options: VectorizeQueryOptions = {},
  ): Promise<VectorizeMatches> {
    this.checkDimensions(vector);
    const topK = options.topK ?? 5;
    const returnsAll = options.returnMetadata === 'all' || options.returnMetadata === true;
    const cap = options.returnValues || returnsAll ? MAX_TOP_K_WITH_DATA : MAX_TOP_K;
    if (!Number.isInteger(topK) || topK < 1 || topK > cap)
      throw fail(40012, `topK must be 1 to ${cap} with these return options, got ${topK}`);
    if (options.namespace !== undefined && bytes(options.namespace) > MAX_NAMESPACE_BYTES)
      throw fail(40009, `namespace over ${MAX_NAMESPACE_BYTES} bytes`);
    const filter = options.filter === undefined ? null : this.checkFilter(options.filter);
    const q = Float32Array.from(vector);
    const matches = [...this.rows.values()]
      .filter((r) => options.namespace === undefined || r.namespace === options.namespace)
      .filter((r) => !filter || filter(r))
      .map((r) => ({ row: r, score: cosine(q, r.values) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, topK)
      .map(
        ({ row, score }): VectorizeMatch => ({
          id: row.id,
          score,
          namespace: row.namespace,
          ...(options.returnValues ? { values: Array.from(row.values) } : {}),
          ...(returnsAll && row.metadata ? { metadata: row.metadata } : {}),
          ...(options.returnMetadata === 'indexed' && row.metadata
            ? { metadata: this.indexedOnly(row.metadata) }
            : {}),
        }),
      );
    return { matches, count: matches.length };
  }

  private checkDimensions(values: ArrayLike<number>): void {
    if (values.length !== this.options.dimensions) {
      throw fail(
        40006,
        `invalid vector, expected ${this.options.dimensions} dimensions, and got ${values.length} dimensions`,
      );
    }
    for (let i = 0; i < values.length; i++)
      if (!Number.isFinite(values[i])) throw fail(40006, 'vector values must be finite numbers');
  }

  /** Validates a filter and compiles it to a predicate over rows. */
  private checkFilter(filter: VectorizeVectorMetadataFilter): (row: Row) => boolean {
    const entries = Object.entries(filter);
    if (entries.length === 0 || bytes(JSON.stringify(filter)) >= MAX_FILTER_BYTES)
      throw fail(40013, `filter must be a non-empty object under ${MAX_FILTER_BYTES} bytes`);
    const tests: ((row: Row) => boolean)[] = [];
    for (const [key, condition] of entries) {
      if (key === '' || key.includes('"') || key.startsWith('$') || key.length > 512)
        throw fail(40013, `invalid filter key '${key}'`);
      const type = this.options.metadataIndexes[key];
      if (!type)
        throw fail(40014, `'${key}' has no metadata index (the service would silently match nothing)`);
      const ops: [string, unknown][] =
        condition !== null && typeof condition === 'object'
          ? Object.entries(condition)
          : [['$eq', condition]];
      for (const [op, operand] of ops) {
        if (!OPS.has(op)) throw fail(40013, `unsupported filter operator '${op}'`);
        const collection = op === '$in' || op === '$nin';
        if (
          collection
            ? !Array.isArray(operand) || !operand.every(isPrimitive)
            : operand !== null && !isPrimitive(operand)
        ) {
          throw fail(40013, `invalid operand for ${op} on '${key}'`);
        }
        tests.push((row) => compare(op, indexedValue(row.metadata, key, type), operand));
      }
    }
    return (row) => tests.every((t) => t(row));
  }

  private indexedOnly(
    metadata: Record<string, VectorizeVectorMetadata>,
  ): Record<string, VectorizeVectorMetadata> {
    const out: Record<string, VectorizeVectorMetadata> = {};
    for (const [key, type] of Object.entries(this.options.metadataIndexes)) {
      const v = indexedValue(metadata, key, type);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }
}

function isPrimitive(v: unknown): v is Primitive {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** The value as the metadata index holds it: typed, strings cut to their first 64 bytes. */
function indexedValue(metadata: Row['metadata'], path: string, type: IndexType): Primitive | undefined {
  let v: unknown = metadata;
  for (const part of path.split('.'))
    v =
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? (v as Record<string, unknown>)[part]
        : undefined;
  if (typeof v !== type) return undefined;
  if (typeof v === 'string') {
    let cut = v;
    while (bytes(cut) > INDEXED_STRING_BYTES) cut = cut.slice(0, -1);
    return cut;
  }
  return v as Primitive;
}

function compare(op: string, value: Primitive | undefined, operand: unknown): boolean {
  if (op === '$in') return value !== undefined && (operand as Primitive[]).includes(value);
  if (op === '$nin') return value === undefined || !(operand as Primitive[]).includes(value);
  if (op === '$eq') return operand === null ? value === undefined : value === operand;
  if (op === '$ne') return operand === null ? value !== undefined : value !== operand;
  if (value === undefined || operand === null || typeof value !== typeof operand) return false;
  const [a, b] = [value as number | string, operand as number | string];
  return op === '$lt' ? a < b : op === '$lte' ? a <= b : op === '$gt' ? a > b : a >= b;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let ab = 0,
    aa = 0,
    bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i] as number) * (b[i] as number);
    aa += (a[i] as number) ** 2;
    bb += (b[i] as number) ** 2;
  }
  return aa && bb ? ab / Math.sqrt(aa * bb) : 0;
}

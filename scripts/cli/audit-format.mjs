// An audit entry's change in a few lines: the fields an update changed as `field: before → after`, the
// fields a create set, nothing more for a delete. Timestamps every write moves (updated_at) are left out.

const NOISE = new Set(['updated_at']);
const MAX_VALUE = 60;

/** A field's value as compact JSON, cut at MAX_VALUE characters. */
export function compact(value) {
  const text = value === undefined ? '∅' : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** The fields whose value differs between two row images, in the order the after image lists them. */
export function changedFields(before, after) {
  const fields = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])];
  return fields.filter((f) => !NOISE.has(f) && JSON.stringify(before?.[f]) !== JSON.stringify(after?.[f]));
}

export function describeChange(entry) {
  const { change, before, after } = entry;
  if (change === 'delete') return [];
  if (change === 'create') {
    const set = Object.entries(after ?? {}).filter(
      ([f, v]) => v !== null && f !== 'id' && f !== 'created_at' && !NOISE.has(f),
    );
    return set.length ? [set.map(([f, v]) => `${f}=${compact(v)}`).join('  ')] : [];
  }
  return changedFields(before, after).map((f) => `${f}: ${compact(before?.[f])} → ${compact(after?.[f])}`);
}

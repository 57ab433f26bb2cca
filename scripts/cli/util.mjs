// Small helpers the CLI's table-driven commands share: flag parsing and the tenant-or-key choice.

/** `a, b,c` → ['a', 'b', 'c']; the API checks each value. */
export function commaList(text) {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A numeric flag, or `none` (null: remove the setting); anything else is refused before any call. */
export function numberFlag(fail, flag, raw) {
  if (raw === undefined) return undefined;
  if (raw === 'none') return null;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) fail(`--${flag}: expected a number or 'none', got '${raw}'`);
  return n;
}

/** The one tenant or key a command is about, from --tenant or --key (exactly one). */
export function ownerOf({ opts, fail }, usage) {
  if (Boolean(opts.tenant) === Boolean(opts.key)) fail(`give one of --tenant <id> or --key <id>\n\n${usage}`);
  return opts.tenant
    ? { kind: 'tenants', id: opts.tenant, what: `tenant ${opts.tenant}` }
    : { kind: 'keys', id: opts.key, what: `key ${opts.key}` };
}

/** A model id in a path: each segment encoded, the slashes kept (`openai/gpt-4o`). */
export const modelPath = (model) => model.split('/').map(encodeURIComponent).join('/');

/** The nth positional after the command's words, or a usage error. */
export function positional({ args, fail }, index, what, usage) {
  return args[index] ?? fail(`missing <${what}>\n\n${usage}`);
}

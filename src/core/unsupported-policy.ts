/**
 * What happens to a request whose translation would leave something out (pure): the `on_unsupported`
 * setting of a key, its tenant and a named route, and the refusal it asks for. `drop` (the default)
 * sends the request without the fields and headers the provider's format cannot carry, naming them in
 * x-edgeway-dropped (docs/translation.md); `refuse` answers 400 `unsupported_field` instead, before
 * anything is reserved or sent. Refuse wins wherever it is said: a key narrows its tenant's policy and
 * never loosens it (as guardrails do), and a route that refuses does so for every request through it.
 */
import * as z from 'zod';
import { GatewayError } from './errors';

export const ON_UNSUPPORTED = ['drop', 'refuse'] as const;
export const OnUnsupported = z
  .enum(ON_UNSUPPORTED)
  .describe(
    'What a request gets when its translation to the provider\'s format would leave out fields or headers that only tune the provider: "drop" sends it without them, named in x-edgeway-dropped; "refuse" answers 400 unsupported_field instead. Refuse wins wherever it is set (key, tenant or route).',
  );
export type OnUnsupported = z.infer<typeof OnUnsupported>;

/** The error code of a policy refusal; the fallback loop tells it from the codecs' own 400s by it. */
export const UNSUPPORTED_FIELD = 'unsupported_field';

export interface UnsupportedPolicies {
  readonly key: OnUnsupported;
  readonly tenant: OnUnsupported;
  /** The strictest of the named routes the target was reached through; 'drop' for a direct `provider/model`. */
  readonly route: OnUnsupported;
}

/** The stricter of two settings. */
export function stricterOnUnsupported(a: OnUnsupported, b: OnUnsupported): OnUnsupported {
  return a === 'refuse' || b === 'refuse' ? 'refuse' : 'drop';
}

/**
 * The refusal for a target whose translation would drop `dropped` (client fields, then headers, in the
 * order x-edgeway-dropped would name them), or null when nothing is dropped or no policy refuses.
 * `target` is the `provider/model` and `format` the wire format it speaks.
 */
export function unsupportedRefusal(
  dropped: readonly string[],
  policies: UnsupportedPolicies,
  target: string,
  format: string,
): GatewayError | null {
  const first = dropped[0];
  if (first === undefined) return null;
  const refusers = (['key', 'tenant', 'route'] as const).filter((who) => policies[who] === 'refuse');
  if (refusers.length === 0) return null;
  const names = dropped.map((d) => `'${d}'`).join(', ');
  const [them, these] = dropped.length > 1 ? ['them', 'These fields'] : ['it', 'This field'];
  const whose = refusers.map((who) => `${who}'s`);
  const refusing =
    whose.length === 1
      ? `${whose[0]} policy (on_unsupported: refuse) refuses`
      : `${whose.slice(0, -1).join(', ')} and ${whose.at(-1)} policies (on_unsupported: refuse) refuse`;
  return new GatewayError(
    400,
    `${these} cannot be carried to '${target}', whose ${format} format has no equivalent for ${them}: ${names}. ` +
      `The ${refusing} such a request rather than send it without ${them}. ` +
      `Remove ${them}, or call a model whose provider speaks the client's format.`,
    { param: first, code: UNSUPPORTED_FIELD, type: 'invalid_request_error' },
  );
}

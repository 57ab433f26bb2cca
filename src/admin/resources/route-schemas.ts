/**
 * The /admin/routes request and response shapes (zod; /admin/openapi.json is
 * generated from them). A route's spec is the shared RouteSpec schema; what it
 * names (providers, other routes) is checked after this, by src/routing/validate.ts.
 */
import * as z from 'zod';
import { RouteName, RouteSpec } from '../../core/route-spec';
import { Route } from '../../storage/route-admin-store';
import { Cursor } from '../schemas';

const TenantId = z.string().min(1).max(64);
const nonEmpty = (o: object) => Object.keys(o).length > 0;

/** `tenant_id=global` in a list query: the global routes only. Tenant ids start with `ten_`, so it is never one. */
export const GLOBAL_SCOPE = 'global';

export const RouteCreate = z.strictObject({
  name: RouteName.describe('What clients put in `model`: letters, digits, ".", "_" and "-"; no "/".'),
  tenant_id: TenantId.nullable()
    .optional()
    .describe("The tenant whose route this is; null or absent: a global route, every tenant's."),
  spec: RouteSpec,
});

export const RouteUpdate = z
  .strictObject({ name: RouteName.optional(), spec: RouteSpec.optional() })
  .refine(nonEmpty, 'send at least one field to change');

export const RouteListQuery = z.strictObject({
  tenant_id: TenantId.optional().describe(
    'A tenant id: that tenant\'s own routes; "global": the global routes; absent: every route.',
  ),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size, 1–100.'),
  cursor: Cursor.optional(),
});

export const RouteList = z.object({
  object: z.literal('list'),
  data: z.array(Route),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

export { Route };

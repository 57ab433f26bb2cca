/** One documented admin route (path, summary, schemas): each router exports its list next to its handlers, openapi.ts joins them. */
import type * as z from 'zod';
import type { Access } from '../core/admin-principal';

/** A schema as it appears under components.schemas; ids are unique across the document. */
export interface NamedSchema {
  id: string;
  schema: z.ZodType;
}

/** One admin route, as documented. Each router module exports its own list next to its handlers. */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form, e.g. /admin/keys/{id}; every {param} is a required string path parameter. */
  path: string;
  summary: string;
  /** Who may call it (src/core/admin-principal.ts); required, so a new route cannot forget it. */
  access: Access;
  query?: z.ZodObject;
  body?: NamedSchema;
  optionalBody?: boolean;
  status: 200 | 201 | 204;
  /** The answer's body; absent only with 204 (no content). */
  response?: NamedSchema;
  /** An answer streamed in another media type (e.g. application/x-ndjson) instead of a JSON `response`. */
  streams?: { mediaType: string; description: string };
  /** A PUT that answers 201 with the same body when it created the resource, `status` when it replaced it. */
  mayCreate?: boolean;
}

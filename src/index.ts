/** Worker entry: the HTTP app (queue and scheduled handlers join as their stages land). */
import { createApp } from './app';
import type { Bindings } from './env';

export { Limiter } from './durable/limiter';
export { VectorIndexDO } from './durable/vector-index';

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Bindings>;

/** Worker entry: the HTTP app, the log queue consumer and the retention cron. */
import { createApp } from './app';
import type { Bindings } from './env';
import { handleQueue } from './logs/queue';
import { handleScheduled } from './logs/retention';

export { Breaker } from './durable/breaker';
export { Limiter } from './durable/limiter';
export { Throttle } from './durable/throttle';
export { VectorIndexDO } from './durable/vector-index';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleQueue(batch, env),
  scheduled: (controller, env) => handleScheduled(controller, env),
} satisfies ExportedHandler<Bindings>;

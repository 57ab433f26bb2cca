/** Worker entry: the HTTP app, the log and alert queue consumers and the retention cron. */
import { ALERT_QUEUE_NAME, handleAlerts } from './alerts/queue';
import { createApp } from './app';
import type { Bindings } from './env';
import { handleQueue } from './logs/consume/queue';
import { handleScheduled } from './logs/retention';

export { Breaker } from './durable/breaker';
export { Limiter } from './durable/limiter';
export { Throttle } from './durable/throttle';
export { VectorIndexDO } from './durable/vector-index';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) =>
    batch.queue === ALERT_QUEUE_NAME ? handleAlerts(batch, env) : handleQueue(batch, env),
  scheduled: (controller, env) => handleScheduled(controller, env),
} satisfies ExportedHandler<Bindings>;

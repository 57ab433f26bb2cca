/**
 * Worker entry: the HTTP app, the log and alert queue consumers and the daily cron (log retention, and
 * the expired stored responses; each runs whether or not the other fails). The
 * consumers and the cron are loaded (their modules evaluated) on their first batch or run, so an
 * isolate starting for a request does not pay for them (DESIGN.md §5, cold start).
 */
import { ALERT_QUEUE_NAME } from './alerts/queue-name';
import { createApp } from './app';
import type { Bindings } from './env';

export { Breaker } from './durable/breaker';
export { Limiter } from './durable/limiter';
export { McpSession } from './durable/mcp-session';
export { Throttle } from './durable/throttle';
export { VectorIndexDO } from './durable/vector-index';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: async (batch, env) =>
    batch.queue === ALERT_QUEUE_NAME
      ? (await import('./alerts/queue')).handleAlerts(batch, env)
      : (await import('./logs/consume/queue')).handleQueue(batch, env),
  scheduled: async (controller, env) => {
    const runs = await Promise.allSettled([
      import('./logs/retention').then((m) => m.handleScheduled(controller, env)),
      import('./storage/response-sweep').then((m) => m.sweepScheduled(controller, env)),
    ]);
    const failed = runs.find((run) => run.status === 'rejected');
    if (failed) throw failed.reason;
  },
} satisfies ExportedHandler<Bindings>;

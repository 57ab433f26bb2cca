/** The queue the Limiter objects send budget alerts to (wrangler.toml): how the Worker's queue handler tells it apart. */
export const ALERT_QUEUE_NAME = 'edgeway-alerts';

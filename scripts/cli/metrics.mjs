// `metrics`: GET /admin/metrics, the Prometheus text a scrape reads (docs/metrics.md), printed as it comes:
// every tenant the token may see, or one with --tenant. For checking a scrape's credentials and output by
// hand; --json does not apply (the answer is Prometheus text, not JSON).

const METRICS_USAGE = 'metrics [--tenant <tenant_id>]';

export const metricsCommands = [
  {
    name: 'metrics',
    operations: ['GET /admin/metrics'],
    usage: METRICS_USAGE,
    help: 'the Prometheus metrics a scrape reads (text exposition format), for every tenant or one',
    async run(ctx) {
      const q =
        ctx.opts.tenant === undefined ? '' : `?${new URLSearchParams({ tenant_id: ctx.opts.tenant })}`;
      const path = `/metrics${q}`;
      const res = await ctx.send('GET', path);
      if (!res.ok) ctx.fail(ctx.refusal('GET', path, res, await res.json().catch(() => null)));
      process.stdout.write(await res.text());
    },
  },
];

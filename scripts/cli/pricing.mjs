// `pricing list|get|set|delete`: per-model price overrides (USD per 1M tokens) over the built-in table.
import { modelPath, numberFlag, positional } from './util.mjs';

const SET_USAGE =
  'pricing set <model> --input <usd> --output <usd> [--cached <usd>] [--cache-write <usd>] [--cache-write-1h <usd>]';
const PRICE_COLUMNS = [
  ['MODEL', (p) => p.model],
  ['INPUT', (p) => p.input],
  ['OUTPUT', (p) => p.output],
  ['CACHED', (p) => p.cached],
  ['WRITE 5M', (p) => p.cache_write],
  ['WRITE 1H', (p) => p.cache_write_1h],
  ['SOURCE', (p) => p.source],
];

const printPrice = (p, table) => table([p], PRICE_COLUMNS);

export const pricingCommands = [
  {
    name: 'pricing list',
    operations: ['GET /admin/pricing'],
    usage: 'pricing list',
    help: 'the default price and every override, USD per 1M tokens',
    async run(ctx) {
      const r = await ctx.call('GET', '/pricing');
      ctx.show(r, () =>
        ctx.table(
          [
            { model: '(default)', ...r.default, source: 'default' },
            ...Object.entries(r.overrides).map(([model, p]) => ({ model, ...p, source: 'override' })),
          ],
          PRICE_COLUMNS,
        ),
      );
    },
  },
  {
    name: 'pricing get',
    operations: ['GET /admin/pricing/{model}'],
    usage: 'pricing get <model>',
    help: "a model's price in force, and where it comes from",
    async run(ctx) {
      const model = positional(ctx, 0, 'model', 'pricing get <model>');
      const p = await ctx.call('GET', `/pricing/${modelPath(model)}`);
      ctx.show(p, () => printPrice(p, ctx.table));
    },
  },
  {
    name: 'pricing set',
    operations: ['PUT /admin/pricing/{model}'],
    usage: SET_USAGE,
    help: "overrides a model's price",
    async run(ctx) {
      const { opts, fail } = ctx;
      const model = positional(ctx, 0, 'model', SET_USAGE);
      const body = {
        input: numberFlag(fail, 'input', opts.input),
        output: numberFlag(fail, 'output', opts.output),
        cached: numberFlag(fail, 'cached', opts.cached),
        cache_write: numberFlag(fail, 'cache-write', opts['cache-write']),
        cache_write_1h: numberFlag(fail, 'cache-write-1h', opts['cache-write-1h']),
      };
      if (body.input == null || body.output == null) fail(`give --input and --output\n\n${SET_USAGE}`);
      // Absent prices take the API's defaults (cached and cache_write: the input price; cache_write_1h: cache_write).
      for (const field of ['cached', 'cache_write', 'cache_write_1h'])
        if (body[field] == null) delete body[field];
      const p = await ctx.call('PUT', `/pricing/${modelPath(model)}`, body);
      ctx.show(p, () => printPrice(p, ctx.table));
    },
  },
  {
    name: 'pricing delete',
    operations: ['DELETE /admin/pricing/{model}'],
    usage: 'pricing delete <model>',
    help: "removes a model's override; prints the price now in force",
    async run(ctx) {
      const model = positional(ctx, 0, 'model', 'pricing delete <model>');
      const p = await ctx.call('DELETE', `/pricing/${modelPath(model)}`);
      ctx.show(p, () => printPrice(p, ctx.table));
    },
  },
];

export const pricingOptions = {
  input: { type: 'string' },
  output: { type: 'string' },
  cached: { type: 'string' },
  'cache-write': { type: 'string' },
  'cache-write-1h': { type: 'string' },
};

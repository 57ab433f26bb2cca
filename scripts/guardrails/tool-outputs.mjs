#!/usr/bin/env node
/**
 * A seeded generator of the tool results an agent reads (e-mails, files,
 * calendars, chat, bank statements, web pages, search results, tickets, CRM
 * records, résumés, whois and DNS records, logs, code, reviews, news,
 * spreadsheets, contacts), benign and with an injected instruction, for
 * training and validating the indirect prompt-injection detector.
 *
 *   toolOutputs({ seed, count }) → [{ text, label, source, domain, format, family,
 *                                     hard_negative, group, injection }]
 *   node scripts/guardrails/tool-outputs.mjs --count 20 --seed 1 [--domain email] [--jsonl]
 *
 * Rows come in twins: a record set rendered as a tool would return it
 * (benign), then the same record set with an injection placed where an
 * attacker controls text. So carrier content is never evidence; only the
 * injected span is. `group` is domain/template, for splits that keep a
 * template on one side; `injection` is the injected span exactly as it
 * appears in `text` (after JSON or YAML escaping). About two in five benign
 * carriers are hard negatives: content full of trigger words (codes,
 * "important", "ignore the previous draft", instructions, bots addressed by
 * name) that is nonetheless ordinary. About one set in eight comes under a
 * task line ("Summarise the following document:"), as a pasted or retrieved
 * document reaches a model. Same seed and count, same rows.
 */
import { parseArgs } from 'node:util';
import { makeInjection } from './tool-outputs/attacks.mjs';
import { DOMAINS } from './tool-outputs/domains/index.mjs';
import { frame } from './tool-outputs/framing.mjs';
import { inject, unfence } from './tool-outputs/inject.mjs';
import { prng, tools } from './tool-outputs/random.mjs';

export { DOMAINS } from './tool-outputs/domains/index.mjs';
export { FAMILIES } from './tool-outputs/attacks.mjs';

export const SOURCE = 'generated/tool-outputs';
const HARD_SHARE = 0.42;
const MAX_CHARS = 8500;

/** One benign row and its injected twin from one record set of `domain`. */
function twins(t, domain) {
  for (let attempt = 0; ; attempt++) {
    const hard = t.chance(HARD_SHARE);
    const set = domain.make(t, { hard });
    const format = t.pick(Object.keys(set.render));
    const framed = frame(t, domain.name);
    const render = framed ? (v) => framed(set.render[format](v)) : set.render[format];
    const benign = render(set.value);
    // A renderer must be a pure function of the record set, or the twins would differ outside the span.
    if (render(set.value) !== benign)
      throw new Error(`tool-outputs: ${domain.name} ${format} renders nondeterministically`);
    if (benign.length > MAX_CHARS && attempt < 8) continue;
    const attack = makeInjection(t, { domain: domain.name, user: set.user, subject: set.subject });
    const slots = Array.isArray(set.slots) ? set.slots : (set.slots[format] ?? set.slots.default);
    const placed = inject(t, set.value, slots, attack.text);
    const { text, span } = unfence(render(placed.value));
    const group = `${domain.name}/${set.template}`;
    const common = { source: SOURCE, domain: domain.name, format, group };
    return [
      {
        text: benign,
        label: 'benign',
        ...common,
        family: 'none',
        hard_negative: Boolean(set.hard ?? hard),
        injection: null,
      },
      { text, label: 'injection', ...common, family: attack.family, hard_negative: false, injection: span },
    ];
  }
}

export function toolOutputs({ seed = 1, count = 1000, domains = DOMAINS } = {}) {
  const t = tools(prng(seed));
  const rows = [];
  while (rows.length < count) {
    const domain = domains[(rows.length / 2) % domains.length] ?? t.pick(domains);
    rows.push(...twins(t, domain));
  }
  return rows.slice(0, count);
}

function main() {
  const { values } = parseArgs({
    options: {
      count: { type: 'string', default: '20' },
      seed: { type: 'string', default: '1' },
      domain: { type: 'string' },
      jsonl: { type: 'boolean', default: false },
    },
  });
  const pool = values.domain ? DOMAINS.filter((d) => d.name === values.domain) : DOMAINS;
  if (pool.length === 0) {
    console.error(
      `tool-outputs: no domain ${values.domain}; domains: ${DOMAINS.map((d) => d.name).join(', ')}`,
    );
    process.exit(1);
  }
  const rows = toolOutputs({ seed: Number(values.seed), count: Number(values.count), domains: pool });
  for (const row of rows) {
    if (values.jsonl) console.log(JSON.stringify(row));
    else {
      const tag =
        row.label === 'benign' ? `benign${row.hard_negative ? ' (hard)' : ''}` : `injection: ${row.family}`;
      console.log(`=== ${row.group} · ${row.format} · ${tag} · ${row.text.length} chars`);
      console.log(row.text);
      if (row.injection) console.log(`--- injected span: ${JSON.stringify(row.injection)}`);
      console.log();
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();

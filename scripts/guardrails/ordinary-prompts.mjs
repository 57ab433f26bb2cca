/**
 * A seeded generator of ordinary prompts: the everyday traffic of a SaaS
 * product behind the gateway (coding help, writing, summarising, translating,
 * support replies, data extraction, SQL, short imperatives, system-prompt
 * lines, prompts carrying e-mail addresses, card, phone and order numbers,
 * multi-line documents, some German, French and Spanish). The injection
 * detector trains on them as extra benign rows, because its public training
 * data has no ordinary assistant tasks and labels short off-task imperatives
 * as attacks; without these a plain "Describe X in a few words" fires.
 *
 * Every prompt is a template filled from slot lists, all written for this
 * project. Each template belongs to one of FAMILIES families (round robin in
 * list order), and a prompt that wraps a task in a system line or a sign-off
 * takes both from the same family, so splitting by family never puts one
 * template on both sides of a split. Deterministic: the same seed and count
 * give the same rows. Longer than most modules because it is mostly data.
 */

export const FAMILIES = 10;

/** Mulberry32, the same small PRNG the trainer uses. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// --- slots ------------------------------------------------------------------------------------------

const FIRST = [
  'jane',
  'john',
  'maria',
  'li',
  'ahmed',
  'sofia',
  'lukas',
  'chloe',
  'diego',
  'priya',
  'tom',
  'anna',
];
const LAST = [
  'doe',
  'smith',
  'garcia',
  'chen',
  'khan',
  'muller',
  'dubois',
  'rossi',
  'novak',
  'patel',
  'berg',
];
const DOMAINS = [
  'example.com',
  'example.org',
  'acme.io',
  'contoso.com',
  'mail.example.net',
  'shop.example.de',
];
const COMPANIES = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella Travel',
  'Northwind',
  'Contoso',
  'Fabrikam',
  'Hooli',
];
const PRODUCTS = [
  'the mobile app',
  'our billing portal',
  'the Pro plan',
  'the analytics dashboard',
  'the API',
];
const THINGS = [
  'a gateway',
  'a load balancer',
  'a CDN',
  'Kubernetes',
  'a REST API',
  'OAuth 2.0',
  'a vector database',
  'a message queue',
  'TLS',
  'a data warehouse',
  'rate limiting',
  'a service mesh',
  'photosynthesis',
  'inflation',
  'the French revolution',
  'a mortgage',
  'compound interest',
  'a neural network',
  'DNS',
  'a cache',
];
const LENGTHS = [
  'in a few words',
  'in one sentence',
  'in two sentences',
  'briefly',
  'in under 50 words',
  'in three bullet points',
  'in plain English',
  'for a ten-year-old',
  'for a non-technical manager',
];
const LANGS = ['Python', 'TypeScript', 'Go', 'Rust', 'Java', 'C#', 'C++', 'Ruby', 'PHP', 'Kotlin', 'Bash'];
const TASKS = [
  'reverses a linked list',
  'parses a CSV file',
  'retries a failed HTTP request with backoff',
  'validates an e-mail address',
  'deduplicates a list while keeping order',
  'reads a JSON config file',
  'computes a moving average',
  'uploads a file to S3',
  'paginates through an API',
  'formats a date as ISO 8601',
];
const ERRORS = [
  "TypeError: Cannot read properties of undefined (reading 'map')",
  "KeyError: 'user_id'",
  'panic: runtime error: index out of range [3] with length 3',
  'NullPointerException at OrderService.java:42',
  'error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable',
  "ModuleNotFoundError: No module named 'pandas'",
  'ECONNREFUSED 127.0.0.1:5432',
];
const TABLES = ['orders', 'customers', 'invoices', 'events', 'subscriptions', 'tickets', 'payments'];
const TONES = ['friendly', 'formal', 'concise', 'apologetic', 'upbeat', 'neutral', 'warm but professional'];
const DOCS = [
  'email',
  'meeting notes',
  'support ticket',
  'contract clause',
  'release notes',
  'article',
  'report',
];
const TARGET_LANGS = ['French', 'German', 'Spanish', 'Italian', 'Japanese', 'Portuguese', 'Dutch', 'Polish'];
const SENTENCES = [
  'The quarterly numbers came in slightly above forecast.',
  'We moved the launch to the second week of March.',
  'Customers on the legacy plan will be migrated automatically.',
  'The outage lasted 42 minutes and affected EU users.',
  'Please review the attached draft before Friday.',
  'Shipping to Canada now takes five to seven business days.',
  'The refund was issued to the original payment method.',
  'Our team will be offline on Monday for the holiday.',
  'The new dashboard shows latency per region.',
  'Invoices are now sent on the first of each month.',
  'The vendor asked for a signed copy of the agreement.',
  'Support hours are 9:00 to 17:00 CET on weekdays.',
  'The password reset link expires after 24 hours.',
  'We noticed a spike in failed logins last night.',
  'The warehouse in Lyon is at 90 % capacity.',
  'Marketing wants the copy shortened by a third.',
];

function digits(r, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(r() * 10);
  return s;
}

/** Slot fillers over one PRNG. */
function slots(r) {
  const pick = (list) => list[Math.floor(r() * list.length)];
  const name = () => `${pick(FIRST)} ${pick(LAST)}`.replace(/\b\w/g, (c) => c.toUpperCase());
  return {
    pick,
    name,
    email: () => `${pick(FIRST)}${pick(['.', '_', ''])}${pick(LAST)}@${pick(DOMAINS)}`,
    phone: () =>
      pick([
        `+1 ${digits(r, 3)}-${digits(r, 3)}-${digits(r, 4)}`,
        `+49 30 ${digits(r, 8)}`,
        `+33 6 ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)}`,
        `(0${digits(r, 3)}) ${digits(r, 6)}`,
      ]),
    card: () =>
      pick([
        '4111 1111 1111 1111',
        '5500 0000 0000 0004',
        `4${digits(r, 3)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)}`,
      ]),
    order: () => pick([`#${digits(r, 6)}`, `ORD-${digits(r, 8)}`, `A${digits(r, 4)}-${digits(r, 4)}`]),
    ticket: () => pick([`TCK-${digits(r, 5)}`, `INC${digits(r, 7)}`, `#${digits(r, 4)}`]),
    iban: () =>
      `DE${digits(r, 2)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 2)}`,
    money: () => `${pick(['$', '€', '£'])}${Math.floor(r() * 900 + 10)}.${digits(r, 2)}`,
    date: () =>
      `${Math.floor(r() * 28 + 1)} ${pick(['January', 'March', 'May', 'July', 'October', 'December'])}`,
    company: () => pick(COMPANIES),
    product: () => pick(PRODUCTS),
    thing: () => pick(THINGS),
    length: () => pick(LENGTHS),
    lang: () => pick(LANGS),
    task: () => pick(TASKS),
    error: () => pick(ERRORS),
    table: () => pick(TABLES),
    tone: () => pick(TONES),
    doc: () => pick(DOCS),
    target: () => pick(TARGET_LANGS),
    paragraph: (n) => Array.from({ length: n }, () => pick(SENTENCES)).join(' '),
    number: (lo, hi) => Math.floor(r() * (hi - lo + 1)) + lo,
  };
}

// --- templates --------------------------------------------------------------------------------------
// Three kinds: tasks (a whole prompt), systems (a system-prompt line put before a task) and sign-offs
// (a line put after one). Each is [id, (s) => text].

const TASK_TEMPLATES = [
  ['describe-short', (s) => `Describe ${s.thing()} ${s.length()}.`],
  ['benchmark-request', (s) => `Benchmark request: describe ${s.thing()} ${s.length()}.`],
  ['explain', (s) => `Explain ${s.thing()} ${s.length()}.`],
  ['what-is', (s) => `What is ${s.thing()} and when would I use it?`],
  ['compare', (s) => `Compare ${s.thing()} and ${s.thing()}. Keep it short.`],
  ['pros-cons', (s) => `List the pros and cons of ${s.thing()} for a small team.`],
  ['write-fn', (s) => `Write a ${s.lang()} function that ${s.task()}.`],
  ['write-fn-tests', (s) => `Generate ${s.lang()} code that ${s.task()}, with unit tests.`],
  [
    'fix-error',
    (s) =>
      `I get this error in my ${s.lang()} service:\n\n${s.error()}\n\nWhat does it mean and how do I fix it?`,
  ],
  [
    'review-code',
    (s) =>
      `Review this snippet and suggest improvements:\n\nfunction total(items) {\n  let t = 0;\n  for (const i of items) t += i.price * i.qty;\n  return t;\n}\n\nTarget language is ${s.lang()}.`,
  ],
  [
    'regex',
    (s) =>
      `Give me a regex that matches ${s.pick(['UK postcodes', 'ISO dates', 'hex colours', 'semantic versions', 'order numbers like ORD-12345678'])}.`,
  ],
  ['sql-count', (s) => `Write a SQL query that counts ${s.table()} per month for ${s.date()} onwards.`],
  [
    'sql-join',
    (s) =>
      `Generate SQL to join ${s.table()} with ${s.table()} on customer_id and return the top ${s.number(3, 20)} rows by amount.`,
  ],
  [
    'sql-explain',
    (s) =>
      `Explain what this query does:\nSELECT customer_id, SUM(amount) FROM ${s.table()} GROUP BY customer_id HAVING SUM(amount) > ${s.number(100, 5000)};`,
  ],
  [
    'sql-index',
    (s) => `Which index would speed up queries on ${s.table()} filtered by created_at and status?`,
  ],
  [
    'summarise-doc',
    (s) => `Summarise this ${s.doc()} in ${s.number(2, 5)} bullet points:\n\n${s.paragraph(s.number(3, 7))}`,
  ],
  [
    'summarise-email-reply',
    (s) =>
      `Summarise this email for me and reply when done.\n\n${s.paragraph(s.number(2, 5))}\n\nBest,\n${s.name()}`,
  ],
  ['tldr', (s) => `TL;DR of the following, please:\n${s.paragraph(s.number(4, 8))}`],
  [
    'action-items',
    (s) =>
      `Extract the action items and owners from these meeting notes:\n- ${s.name()}: ${s.paragraph(1)}\n- ${s.name()}: ${s.paragraph(1)}\n- ${s.name()}: ${s.paragraph(1)}`,
  ],
  ['translate', (s) => `Translate into ${s.target()}: "${s.paragraph(s.number(1, 3))}"`],
  [
    'translate-formal',
    (s) => `Please translate this message to ${s.target()} and keep the tone ${s.tone()}:\n${s.paragraph(2)}`,
  ],
  ['proofread', (s) => `Proofread this paragraph and fix grammar only:\n${s.paragraph(s.number(2, 4))}`],
  ['rewrite-tone', (s) => `Rewrite this in a ${s.tone()} tone:\n${s.paragraph(s.number(1, 3))}`],
  ['shorten', (s) => `Make this shorter, under ${s.number(20, 80)} words: ${s.paragraph(s.number(2, 4))}`],
  [
    'blog-outline',
    (s) => `Draft an outline for a blog post about ${s.thing()} for ${s.company()}'s customers.`,
  ],
  ['product-copy', (s) => `Write two lines of product copy for ${s.product()} aimed at finance teams.`],
  [
    'subject-lines',
    (s) => `Suggest ${s.number(3, 10)} subject lines for an email announcing ${s.product()} price changes.`,
  ],
  [
    'support-refund',
    (s) =>
      `Customer ${s.name()} (${s.email()}) asks about a refund for order ${s.order()} of ${s.money()}. Draft a ${s.tone()} reply.`,
  ],
  [
    'support-delivery',
    (s) =>
      `Write a reply to a customer whose order ${s.order()} has not arrived. Their phone is ${s.phone()}; offer a callback.`,
  ],
  [
    'support-password',
    (s) => `A user at ${s.email()} cannot reset their password for ${s.product()}. Draft the support answer.`,
  ],
  [
    'support-ticket',
    (s) =>
      `Ticket ${s.ticket()}: "${s.paragraph(s.number(1, 3))}" Classify it as billing, technical or account, and suggest a first reply.`,
  ],
  [
    'support-cancel',
    (s) =>
      `Reply to ${s.name()} who wants to cancel ${s.product()}. Mention that the last invoice was ${s.money()}.`,
  ],
  [
    'extract-contacts',
    (s) =>
      `Extract name, email and phone as JSON from: "Hi, this is ${s.name()}, reach me at ${s.email()} or ${s.phone()}."`,
  ],
  [
    'extract-invoice',
    (s) =>
      `Pull the invoice number, date and total from this text: Invoice ${s.order()} dated ${s.date()}, total due ${s.money()}, IBAN ${s.iban()}.`,
  ],
  [
    'extract-order',
    (s) =>
      `From this message, return the order number and the customer's email only: "${s.paragraph(1)} My order is ${s.order()}, email ${s.email()}."`,
  ],
  ['card-mail', (s) => `Card ${s.card()}, mail ${s.email()}.`],
  [
    'card-charge',
    (s) => `Why was card ${s.card()} charged ${s.money()} twice on ${s.date()}? Customer email ${s.email()}.`,
  ],
  ['mail-short', (s) => `mail ${s.email()}`],
  ['call-short', (s) => `Call ${s.name()} at ${s.phone()} about order ${s.order()}.`],
  [
    'classify-sentiment',
    (s) => `Classify the sentiment of this review as positive, negative or mixed: "${s.paragraph(1)}"`,
  ],
  [
    'json-schema',
    (s) =>
      `Convert this to a JSON object with fields name, email, company: ${s.name()}, ${s.email()}, ${s.company()}`,
  ],
  [
    'csv-clean',
    () =>
      'Clean up this CSV and ignore the header row:\nname,email,amount\nAnna,anna@example.com,12.50\nTom,,9.99',
  ],
  [
    'ignore-noise',
    (s) => `Ignore the typos in this note and tell me what ${s.name()} is asking for: ${s.paragraph(2)}`,
  ],
  [
    'plan-trip',
    (s) =>
      `Plan a ${s.number(2, 7)}-day trip to ${s.pick(['Lisbon', 'Kyoto', 'Berlin', 'Montreal', 'Lyon'])} on a mid-range budget.`,
  ],
  [
    'recipe',
    (s) =>
      `Give me a quick recipe with ${s.pick(['chickpeas', 'rice and eggs', 'spinach', 'salmon', 'lentils'])}, under 30 minutes.`,
  ],
  ['math', (s) => `What is ${s.number(12, 99)}% of ${s.money()}? Show the steps.`],
  [
    'spreadsheet',
    (s) =>
      `Write an Excel formula that sums column ${s.pick(['B', 'C', 'D'])} when column A says "${s.company()}".`,
  ],
  ['interview-q', (s) => `Suggest five interview questions for a ${s.lang()} developer role.`],
  ['okr', (s) => `Help me write three OKRs for the support team at ${s.company()}.`],
  [
    'cover-letter',
    (s) =>
      `Write a short cover letter for a ${s.pick(['data analyst', 'product manager', 'backend engineer'])} role at ${s.company()}.`,
  ],
  [
    'meeting-invite',
    (s) =>
      `Draft a meeting invite for ${s.date()} with ${s.name()} and ${s.name()} to review ${s.product()}.`,
  ],
  [
    'doc-qa',
    (s) =>
      `Based on this text, when do invoices go out?\n\n${s.paragraph(s.number(3, 6))} Invoices are now sent on the first of each month.`,
  ],
  ['commit-msg', (s) => `Write a commit message for a change that ${s.task()}.`],
  [
    'shell',
    (s) => `How do I find all files larger than ${s.number(10, 500)} MB in a directory from the shell?`,
  ],
  ['git', () => 'How do I undo the last commit but keep my changes?'],
  ['docker', (s) => `Write a Dockerfile for a small ${s.lang()} web service.`],
  ['act-as-editor', (s) => `Act as an editor and tighten this paragraph: ${s.paragraph(3)}`],
  [
    'pretend-customer',
    (s) => `Pretend you are a customer of ${s.company()} and write a short review of ${s.product()}.`,
  ],
  ['de-summary', (s) => `Fasse diese E-Mail kurz zusammen und antworte an ${s.email()}:\n${s.paragraph(2)}`],
  ['de-code', (s) => `Schreib eine ${s.lang()}-Funktion, die eine Liste sortiert, und erkläre sie kurz.`],
  [
    'de-support',
    (s) =>
      `Bitte formuliere eine freundliche Antwort an den Kunden zur Bestellung ${s.order()}. Telefon: ${s.phone()}.`,
  ],
  ['de-explain', (s) => `Erkläre ${s.thing()} in einfachen Worten.`],
  ['fr-summary', (s) => `Résume ce texte en trois points, s'il te plaît :\n${s.paragraph(3)}`],
  [
    'fr-support',
    (s) => `Rédige une réponse polie au client ${s.name()} au sujet de la commande ${s.order()}.`,
  ],
  [
    'fr-translate',
    (s) => `Traduis en anglais : « Votre commande ${s.order()} a été expédiée le ${s.date()}. »`,
  ],
  ['es-summary', (s) => `Resume este correo y responde a ${s.email()} cuando termines:\n${s.paragraph(2)}`],
  ['es-code', (s) => `Escribe una consulta SQL que devuelva los ${s.table()} del último mes.`],
  ['es-support', (s) => `Redacta una respuesta amable para un cliente con el pedido ${s.order()} retrasado.`],
  ['describe-product', (s) => `Describe ${s.product()} in a few words for the landing page.`],
  [
    'name-ideas',
    (s) =>
      `Give me ten name ideas for a ${s.pick(['budgeting app', 'coffee shop', 'newsletter', 'podcast'])}.`,
  ],
  [
    'email-followup',
    (s) =>
      `Write a follow-up email to ${s.name()} at ${s.email()} about the proposal we sent on ${s.date()}.`,
  ],
  ['faq', (s) => `Turn these notes into three FAQ entries for ${s.product()}: ${s.paragraph(3)}`],
  ['policy-question', () => 'What is your refund policy for annual subscriptions?'],
  ['chart', (s) => `Which chart type fits monthly ${s.table()} counts by region?`],
  // Everyday uses of the detector's cue words (cues.ts): an AI gateway's users talk about system prompts,
  // new rules and previous instructions, and ask for answers in another language from now on.
  [
    'system-prompt-howto',
    (s) =>
      `${s.pick(['How do I set', 'Where do I put', 'Can you review'])} the system prompt for the ${s.company()} chatbot? It should answer in ${s.target()}.`,
  ],
  [
    'new-rules-summary',
    (s) =>
      `Summarise the new ${s.pick(['rules', 'guidelines', 'instructions'])} for the ${s.doc()} in ${s.pick(['three', 'five'])} bullet points:\n${s.paragraph(3)}`,
  ],
  [
    'previous-instructions',
    (s) =>
      `The previous ${s.pick(['instructions', 'guidelines'])} for code that ${s.task()} were unclear. Rewrite them as a numbered list.`,
  ],
  [
    'ignore-lint',
    (s) => `How do I ignore ${s.pick(['all', 'the'])} ${s.lang()} linter rules for a single file?`,
  ],
  [
    'no-limit',
    (s) => `Write a ${s.tone()} story about ${s.thing()}, no word limit, and show me the outline first.`,
  ],
  [
    'de-rules',
    (s) => `Fasse die neuen Regeln zusammen und antworte ab jetzt auf Deutsch:\n${s.paragraph(2)}`,
  ],
];

const SYSTEM_TEMPLATES = [
  [
    'sys-helpful',
    (s) =>
      `You are a helpful assistant. ${s.pick(['Answer briefly.', 'Be concise.', 'Use plain language.', 'Answer in English.'])}`,
  ],
  [
    'sys-support',
    (s) => `You are a support agent for ${s.company()}; answer politely and do not promise refunds.`,
  ],
  [
    'sys-coder',
    (s) => `You are an expert ${s.lang()} developer. Reply with code first, then a short explanation.`,
  ],
  ['sys-writer', (s) => `You are a copywriter for ${s.company()}. Keep the brand voice ${s.tone()}.`],
  ['sys-json', () => 'You are a data extraction service. Respond only with valid JSON.'],
  [
    'sys-translator',
    (s) => `You are a professional translator. Translate the user's text into ${s.target()}.`,
  ],
  ['sys-tutor', () => 'You are a patient maths tutor. Explain each step.'],
  ['sys-summariser', () => 'You summarise documents for busy executives. Use at most five bullet points.'],
  ['sys-sql', () => 'You are a SQL assistant for a PostgreSQL 16 database. Only produce read-only queries.'],
  ['sys-de', (s) => `Du bist ein hilfreicher Assistent von ${s.company()}. Antworte kurz und freundlich.`],
  ['sys-from-now', (s) => `From now on, answer in ${s.target()} and keep your replies short.`],
  ['sys-now-mode', (s) => `You are now the ${s.company()} help desk. Follow the rules in the FAQ below.`],
];

const SIGN_OFFS = [
  ['end-reply', (s) => `Reply to ${s.email()} when done.`],
  ['end-thanks', () => 'Thanks in advance!'],
  ['end-cc', (s) => `Please cc ${s.email()} on the answer.`],
  ['end-deadline', (s) => `I need this by ${s.date()}.`],
  ['end-format', () => 'Format the answer as Markdown.'],
  ['end-callback', (s) => `If anything is unclear, call me on ${s.phone()}.`],
  ['end-ref', (s) => `Reference: ${s.ticket()}.`],
  ['end-short', () => 'Keep it under 100 words.'],
  ['end-lang', (s) => `Answer in ${s.target()}.`],
  ['end-sig', (s) => `Regards,\n${s.name()}\n${s.company()}`],
];

const familyOf = (list) => new Map(list.map(([id], i) => [id, i % FAMILIES]));
const TASK_FAMILY = familyOf(TASK_TEMPLATES);

function byFamily(list) {
  return Array.from({ length: FAMILIES }, (_, f) => list.filter((_, i) => i % FAMILIES === f));
}
const SYSTEMS = byFamily(SYSTEM_TEMPLATES);
const ENDS = byFamily(SIGN_OFFS);

/**
 * `count` ordinary prompts as {text, template, family}. Task templates are
 * taken in turn; about a quarter get a system line first and a quarter a
 * sign-off after (from the task's family). Then every system line and
 * sign-off alone, a few times each. Exact duplicates are dropped.
 */
export function ordinaryPrompts({ count = 3000, seed = 20_240_615 } = {}) {
  const r = prng(seed);
  const s = slots(r);
  const seen = new Set();
  const out = [];
  for (let i = 0; out.length < count && i < count * 4; i++) {
    const [id, make] = TASK_TEMPLATES[i % TASK_TEMPLATES.length];
    const family = TASK_FAMILY.get(id);
    const parts = [make(s)];
    const ids = [id];
    if (r() < 0.25) {
      const [sid, system] = s.pick(SYSTEMS[family]);
      parts.unshift(system(s));
      ids.unshift(sid);
    }
    if (r() < 0.25) {
      const [eid, end] = s.pick(ENDS[family]);
      parts.push(end(s));
      ids.push(eid);
    }
    const text = parts.join(r() < 0.5 ? ' ' : '\n');
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({ text, template: ids.join('+'), family });
  }
  return [...out, ...fragments(s)];
}

/** System lines and sign-offs on their own too (they arrive as separate turns): a few of each. */
function fragments(s, perTemplate = 8) {
  const out = [];
  for (const list of [SYSTEM_TEMPLATES, SIGN_OFFS]) {
    list.forEach(([id, make], i) => {
      const seen = new Set();
      for (let k = 0; k < perTemplate; k++) {
        const text = make(s);
        if (!seen.has(text)) out.push({ text, template: id, family: i % FAMILIES });
        seen.add(text);
      }
    });
  }
  return out;
}

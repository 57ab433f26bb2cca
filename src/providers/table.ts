/**
 * Providers are rows before they are modules: every upstream that speaks the
 * OpenAI or Anthropic format over HTTP with a key in a header is one entry
 * here. A new file is needed only for a different wire format or transport
 * (Gemini, Bedrock, Workers AI, Azure's deployment URLs). Extra rows come from
 * the EDGEWAY_PROVIDERS secret/var (JSON array) at runtime.
 */
import * as z from 'zod';
import type { ClientFormat, Endpoint } from '../core/endpoints';
import type { Secrets } from '../env';
import { ConfigError } from '../config';
import { jsonProblem } from '../util/json-problem';

export interface ProviderRow {
  readonly id: string;
  readonly baseUrl: string;
  /** Name of the secret holding the provider's API key; '' when it takes none. */
  readonly keySecret: string;
  /** The endpoints it serves natively, each with the wire format it speaks there. */
  readonly serves: Readonly<Partial<Record<Endpoint, ClientFormat>>>;
  /** The key to use when the secret is absent (only the mock has one). */
  readonly defaultKey?: string;
  /** Works without a key (a self-hosted server): no auth header is sent when none is set. */
  readonly keyless?: boolean;
  /** Fixed headers sent with every call (e.g. an org id or a routing header). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Whether a tenant may store its own key for it (not for the mock or keyless rows). */
  readonly tenantKeys?: boolean;
  /** The response header with the provider's request id. */
  readonly requestIdHeader?: string;
  /** Model ids it serves, for /v1/models (without the `provider/` prefix); a custom row may list its own. */
  readonly models?: readonly string[];
}

const CHAT = { chat: 'openai' } as const;
const CHAT_EMBED = { chat: 'openai', embeddings: 'openai' } as const;

export const BUILTIN_PROVIDERS: readonly ProviderRow[] = [
  {
    id: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    keySecret: 'OPENAI_API_KEY',
    serves: { ...CHAT_EMBED, responses: 'responses' },
    tenantKeys: true,
    requestIdHeader: 'x-request-id',
  },
  {
    id: 'anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    keySecret: 'ANTHROPIC_API_KEY',
    serves: { messages: 'anthropic' },
    tenantKeys: true,
    requestIdHeader: 'request-id',
  },
  {
    id: 'groq',
    baseUrl: 'https://api.groq.com/openai/v1',
    keySecret: 'GROQ_API_KEY',
    serves: CHAT,
    tenantKeys: true,
  },
  {
    id: 'mistral',
    baseUrl: 'https://api.mistral.ai/v1',
    keySecret: 'MISTRAL_API_KEY',
    serves: CHAT_EMBED,
    tenantKeys: true,
  },
  {
    id: 'deepseek',
    baseUrl: 'https://api.deepseek.com/v1',
    keySecret: 'DEEPSEEK_API_KEY',
    serves: CHAT,
    tenantKeys: true,
  },
  {
    id: 'openrouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    keySecret: 'OPENROUTER_API_KEY',
    serves: CHAT_EMBED,
    tenantKeys: true,
  },
  {
    id: 'together',
    baseUrl: 'https://api.together.xyz/v1',
    keySecret: 'TOGETHER_API_KEY',
    serves: CHAT_EMBED,
    tenantKeys: true,
  },
];

/**
 * The mock LLM speaks both formats on one base URL; its key is not a secret.
 * It exists only where the mock is configured (dev, tests, bench set
 * MOCK_LLM_URL or the MOCK_LLM binding): a deployed gateway does not list it.
 */
export function mockProviderRow(baseUrl: string): ProviderRow {
  return {
    id: 'mock',
    baseUrl,
    keySecret: 'MOCK_API_KEY',
    serves: { chat: 'openai', embeddings: 'openai', messages: 'anthropic', responses: 'responses' },
    defaultKey: 'mock-key',
    requestIdHeader: 'x-request-id',
  };
}

/** Header names a row may fix: tokens only, and never ones the gateway itself sets or that carry the body's framing. */
const HeaderName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/, 'a header name')
  .refine(
    (h) =>
      !['content-type', 'content-length', 'host', 'transfer-encoding', 'connection'].includes(
        h.toLowerCase(),
      ),
    'a header the gateway sets itself',
  );

const CustomRow = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes'),
    base_url: z.url().refine((u) => /^https?:/.test(u), 'must be http(s)'),
    api_key_secret: z
      .string()
      .regex(/^PROVIDER_KEY_[A-Z0-9_]+$/, 'must name a PROVIDER_KEY_* secret')
      .optional(),
    format: z.enum(['openai', 'anthropic']).default('openai'),
    /** What it serves natively; an openai row may add 'responses' (a server with OpenAI's Responses API, e.g. vLLM). */
    endpoints: z.array(z.enum(['chat', 'embeddings', 'messages', 'responses'])).optional(),
    headers: z.record(HeaderName, z.string().max(1024)).optional(),
    request_id_header: HeaderName.optional(),
    /** Its model ids (as the server names them), listed by /v1/models as `<id>/<model>`. */
    models: z
      .array(
        z
          .string()
          .min(1)
          .max(200)
          .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces'),
      )
      .max(1000)
      .optional(),
  })
  .refine((r) => (r.endpoints ?? []).every((e) => (e === 'messages') === (r.format === 'anthropic')), {
    path: ['endpoints'],
    message: "an openai row serves 'chat', 'embeddings' and 'responses', an anthropic row 'messages'",
  });

/**
 * Parses EDGEWAY_PROVIDERS. A broken value is a deploy mistake: it throws a
 * ConfigError naming the variable and the row, never quoting the value (it is
 * a secret when set with `wrangler secret put`). A row without
 * `api_key_secret` is keyless (vLLM, Ollama, TGI): no auth header is sent.
 */
export function customProviderRows(secrets: Pick<Secrets, 'EDGEWAY_PROVIDERS'>): ProviderRow[] {
  const raw = secrets.EDGEWAY_PROVIDERS?.trim();
  if (!raw) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new ConfigError('EDGEWAY_PROVIDERS', `EDGEWAY_PROVIDERS is not valid JSON: ${jsonProblem(err)}`);
  }
  const parsed = z.array(CustomRow).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const [row, ...field] = issue?.path ?? [];
    const where = typeof row === 'number' ? `row ${row}${field.length ? ` (${field.join('.')})` : ''}: ` : '';
    throw new ConfigError(
      'EDGEWAY_PROVIDERS',
      `EDGEWAY_PROVIDERS is invalid: ${where}${issue?.message ?? 'bad value'}`,
    );
  }
  return parsed.data.map((r) => ({
    id: r.id,
    baseUrl: r.base_url.replace(/\/+$/, ''),
    keySecret: r.api_key_secret ?? '',
    keyless: r.api_key_secret === undefined,
    tenantKeys: r.api_key_secret !== undefined,
    headers: r.headers,
    requestIdHeader: r.request_id_header,
    models: r.models ?? [],
    serves: Object.fromEntries(
      (r.endpoints ?? (r.format === 'anthropic' ? ['messages'] : ['chat', 'embeddings'])).map((e) => [
        e,
        e === 'responses' ? 'responses' : r.format,
      ]),
    ),
  }));
}

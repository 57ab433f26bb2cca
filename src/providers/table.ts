/**
 * Providers are rows before they are modules: every OpenAI-compatible upstream
 * is one entry here. A new file is needed only for a different wire format.
 * Extra rows come from the EDGEWAY_PROVIDERS secret/var (JSON array) at runtime.
 */
import { z } from 'zod';
import type { Endpoint } from '../core/endpoints';
import type { Secrets } from '../env';
import type { WireFormat } from '../core/endpoints';
import { ConfigError } from '../config';

export interface ProviderRow {
  readonly id: string;
  readonly baseUrl: string;
  /** Name of the secret holding the provider's API key. */
  readonly keySecret: string;
  /** The endpoints it serves, each with the wire format it speaks there. */
  readonly serves: Readonly<Partial<Record<Endpoint, WireFormat>>>;
  /** The key to use when the secret is absent (only the mock has one). */
  readonly defaultKey?: string;
}

const CHAT = { chat: 'openai' } as const;
const CHAT_EMBED = { chat: 'openai', embeddings: 'openai' } as const;

export const BUILTIN_PROVIDERS: readonly ProviderRow[] = [
  { id: 'openai', baseUrl: 'https://api.openai.com/v1', keySecret: 'OPENAI_API_KEY', serves: CHAT_EMBED },
  {
    id: 'anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    keySecret: 'ANTHROPIC_API_KEY',
    serves: { messages: 'anthropic' },
  },
  { id: 'groq', baseUrl: 'https://api.groq.com/openai/v1', keySecret: 'GROQ_API_KEY', serves: CHAT },
  { id: 'mistral', baseUrl: 'https://api.mistral.ai/v1', keySecret: 'MISTRAL_API_KEY', serves: CHAT_EMBED },
  { id: 'deepseek', baseUrl: 'https://api.deepseek.com/v1', keySecret: 'DEEPSEEK_API_KEY', serves: CHAT },
  {
    id: 'openrouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    keySecret: 'OPENROUTER_API_KEY',
    serves: CHAT_EMBED,
  },
  {
    id: 'together',
    baseUrl: 'https://api.together.xyz/v1',
    keySecret: 'TOGETHER_API_KEY',
    serves: CHAT_EMBED,
  },
];

/** The mock LLM speaks both formats on one base URL; its key is not a secret. */
export function mockProviderRow(baseUrl: string): ProviderRow {
  return {
    id: 'mock',
    baseUrl,
    keySecret: 'MOCK_API_KEY',
    serves: { chat: 'openai', embeddings: 'openai', messages: 'anthropic' },
    defaultKey: 'mock-key',
  };
}

const CustomRow = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes'),
  base_url: z.url().refine((u) => /^https?:/.test(u), 'must be http(s)'),
  api_key_secret: z
    .string()
    .regex(/^PROVIDER_KEY_[A-Z0-9_]+$/, 'must name a PROVIDER_KEY_* secret')
    .optional(),
  format: z.enum(['openai', 'anthropic']).default('openai'),
  endpoints: z.array(z.enum(['chat', 'embeddings', 'messages'])).optional(),
});

/**
 * Parses EDGEWAY_PROVIDERS. A broken value is a deploy mistake: it throws a
 * ConfigError naming the variable and the row, never quoting the value (it is
 * a secret when set with `wrangler secret put`).
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
    serves: Object.fromEntries(
      (r.endpoints ?? (r.format === 'anthropic' ? ['messages'] : ['chat', 'embeddings'])).map((e) => [
        e,
        r.format,
      ]),
    ),
  }));
}

/** V8's JSON.parse message without the excerpt of the input it may quote (`Unexpected token 'x', "[{…" is not…`). */
function jsonProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  const head = message.split(/,\s*"/)[0]?.trim().slice(0, 120);
  return head || 'syntax error';
}

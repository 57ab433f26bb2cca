// End to end: the clients of OpenAI's Responses API (`POST /v1/responses`), installed from the registry, in
// their default mode, through Edgeway to the mock LLM: on a model of the other wire format (an Anthropic-format
// row, so the gateway translates Responses ⇄ Messages) and on the mock's own OpenAI-format row (the request
// passes through as sent). Codex CLI (its native binary) completes a task with a shell tool call; the Vercel AI
// SDK's default provider and the OpenAI Agents SDK run a tool loop; the openai SDK's `responses.create`,
// `responses.stream` and `responses.parse`, a second turn by `previous_response_id` and the stored responses'
// routes (retrieve, input items, delete, another tenant, `store: false`); a Vercel AI SDK conversation whose
// second turn refers to the first answer by `item_reference`. Every client is bounded in time and kept off the
// internet: Codex behind a dead proxy for anything but loopback, its analytics, feedback and update check off;
// the SDKs in this process behind a fetch that refuses any host but loopback, the Agents SDK's tracing off.
import { createOpenAI } from '@ai-sdk/openai';
import { Agent, run, tool as agentTool, setDefaultOpenAIClient, setTracingDisabled } from '@openai/agents';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import * as z from 'zod';
import { ROOT } from '../../scripts/stack.mjs';
import { startTestStack } from './stack.mjs';

const PORT = 20687;
const MOCK = `http://127.0.0.1:${PORT + 1}`;

/** An Anthropic-format view of the mock: a model there is reached by translation. */
const VARS = {
  EDGEWAY_PROVIDERS: JSON.stringify([
    {
      id: 'claude-only',
      base_url: `${MOCK}/v1`,
      format: 'anthropic',
      api_key_secret: 'PROVIDER_KEY_CLAUDE_ONLY',
    },
  ]),
  PROVIDER_KEY_CLAUDE_ONLY: 'claude-only-key',
  // Seals the MCP server's bearer token (the Codex → /mcp test).
  PROVIDER_KEYS_SECRET: 'e2e-responses-provider-keys-secret-012345',
};

/** Echo models repeat the last user message, and answer a tool result with `Tool result: <its text>`. */
const TRANSLATED = 'claude-only/echo';
const NATIVE = 'mock/echo';
/** A model that generates words seeded by the whole conversation it is sent. */
const GENERATING = 'claude-only/mock-small';

const CODEX = join(ROOT, 'node_modules', '.bin', 'codex');
const CODEX_TIMEOUT_MS = 90_000;
const CALL_TIMEOUT_MS = 30_000;

let stack;
let home;
let client;

/**
 * The SDKs in this process reach loopback only: a request to any other host is refused and recorded (the last
 * test checks there were none), so nothing leaves the machine even if a client phoned home by itself.
 */
const offMachine = [];
const loopbackFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.hostname === '127.0.0.1' || url.hostname === 'localhost') return loopbackFetch(input, init);
  offMachine.push(url.origin);
  return Promise.reject(new Error(`refused a request off the machine: ${url.origin}`));
};

before(
  async () => {
    stack = await startTestStack(PORT, VARS);
    home = mkdtempSync(join(tmpdir(), 'edgeway-responses-'));
    client = new OpenAI({
      apiKey: stack.key,
      baseURL: `${stack.url}/v1`,
      maxRetries: 0,
      timeout: CALL_TIMEOUT_MS,
    });
  },
  { timeout: 180_000 },
);

after(() => {
  stack?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** The environment every client process gets: a throwaway home, and no route off the machine. */
function offlineEnv(extra) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
    ...extra,
  };
}

/**
 * A CODEX_HOME whose config.toml points Codex at the gateway over the Responses API, with its analytics,
 * feedback and update check off and no retries (a failure surfaces at once). Codex runs with
 * `--strict-config`, so a key this version does not know fails the run instead of being ignored.
 */
function codexHome(extra = []) {
  const dir = mkdtempSync(join(home, 'codex-home-'));
  writeFileSync(
    join(dir, 'config.toml'),
    [
      'model_provider = "edgeway"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.edgeway]',
      'name = "Edgeway"',
      `base_url = "${stack.url}/v1"`,
      'env_key = "EDGEWAY_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[feedback]',
      'enabled = false',
      '',
      ...extra,
    ].join('\n'),
  );
  return dir;
}

/**
 * Runs `codex exec` in `cwd` against the gateway; resolves with its final message. The test machine is the
 * sandbox (a temp directory, no network but loopback), so Codex's own sandbox is bypassed: it needs user
 * namespaces the host may not grant.
 */
function codex(model, prompt, cwd, config = []) {
  const last = join(cwd, '..', `${cwd.split('/').at(-1)}-last-message.txt`);
  const codexDir = codexHome(config);
  return new Promise((resolve, reject) => {
    const child = execFile(
      CODEX,
      [
        'exec',
        '--strict-config',
        '--skip-git-repo-check',
        '--dangerously-bypass-approvals-and-sandbox',
        '--color',
        'never',
        '--model',
        model,
        '--output-last-message',
        last,
        prompt,
      ],
      {
        cwd,
        env: offlineEnv({ CODEX_HOME: codexDir, EDGEWAY_KEY: stack.key }),
        timeout: CODEX_TIMEOUT_MS,
        maxBuffer: 8 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`codex failed (${err.code ?? err.signal}): ${stderr}\n${stdout}`));
        else resolve({ stdout, stderr, message: readFileSync(last, 'utf8'), items: sessionItems(codexDir) });
      },
    );
    // `codex exec` reads stdin to its end when it is not a terminal: close it.
    child.stdin.end();
  });
}

/** The conversation items Codex kept in its session log (CODEX_HOME/sessions/…/rollout-*.jsonl). */
function sessionItems(codexDir) {
  const sessions = join(codexDir, 'sessions');
  return readdirSync(sessions, { recursive: true })
    .filter((f) => /rollout-.*\.jsonl$/.test(f))
    .flatMap((f) => readFileSync(join(sessions, f), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.type === 'response_item')
    .map((entry) => entry.payload);
}

/**
 * Codex asks for reasoning summaries on every request, which OpenAI (and the mock) refuse for a model that does
 * not reason: the OpenAI-format model is the mock's reasoning echo model, whose signed reasoning Codex sends
 * back on the tool-result turn. The Anthropic-format row gets it translated.
 */
for (const [format, model, reasons] of [
  ['Anthropic', TRANSLATED, false],
  ['OpenAI', 'mock/echo-think', true],
]) {
  describe(`Codex CLI → ${format}-format model`, () => {
    test('completes a task with a shell tool call: the file is written and the answer reads the tool result', async () => {
      const content = `written by codex through ${format}`;
      const call = JSON.stringify({ cmd: `printf '${content}' > out.txt && cat out.txt` });
      const cwd = mkdtempSync(join(home, 'task-'));
      const run = await codex(model, `Write the file.\nTOOL exec_command ${call}`, cwd);
      assert.equal(readFileSync(join(cwd, 'out.txt'), 'utf8'), content);
      // The echo model's answer to the command's output, which Codex sent back as a function_call_output.
      assert.match(run.message, /^Tool result: /);
      assert.ok(run.message.includes(content), run.message);
      // What Codex kept, and sent back on the tool-result turn: the call, its output and (from the reasoning
      // model) the reasoning with its encrypted_content, which the mock checked when it came back.
      const kinds = run.items.map((item) => item.type);
      assert.ok(kinds.includes('function_call') && kinds.includes('function_call_output'), String(kinds));
      const reasoning = run.items.filter((item) => item.type === 'reasoning');
      if (reasons) assert.ok(reasoning.length > 0 && reasoning.every((item) => item.encrypted_content));
    });
  });
}

/** A lookup tool the models are told to call by the `TOOL` line of the prompt. */
const LOOKUP_PROMPT = 'Look the word up.\nTOOL lookup {"word":"gateway"}';
const lookupAnswer = (word) => `${word}: a door to every model`;

/**
 * Codex sends each MCP server's tools as one Responses `namespace` tool (`mcp__edgeway`, holding `mock__echo`
 * …): an OpenAI-format model takes it as is; for any other format its members are translated into tools of
 * their own (`mcp__edgeway__mock__echo`) and their calls back into namespaced items
 * (src/codecs/responses/tools.ts).
 */
describe('Codex CLI → /mcp', () => {
  const headers = () => ({ authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' });
  /** The answered calls of mock__echo through /mcp in the logs so far. */
  const echoCalls = async () => {
    const logs = await fetch(`${stack.url}/admin/logs?tenant_id=${stack.tenantId}&endpoint=/mcp&limit=100`, {
      headers: headers(),
    });
    return (await logs.json()).data.filter((r) => r.model === 'mock__echo' && r.status === 200).length;
  };
  before(async () => {
    const registered = await fetch(`${stack.url}/admin/tenants/${stack.tenantId}/mcp-servers`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({
        namespace: 'mock',
        url: `${MOCK}/mcp/healthy`,
        auth: { type: 'bearer', secret: 'mock-mcp-token' },
      }),
    });
    assert.equal(registered.status, 201, await registered.clone().text());
  });

  // The name the model is given: the member's own inside the namespace, or the canonical one translated.
  for (const [format, model, tool] of [
    ['Anthropic', TRANSLATED, 'mcp__edgeway__mock__echo'],
    ['OpenAI', 'mock/echo-think', 'mock__echo'],
  ]) {
    test(`calls a tool of the tenant's MCP server through the gateway on a ${format}-format model`, async () => {
      const text = `codex through the MCP gateway on ${format}`;
      const before = await echoCalls();
      const cwd = mkdtempSync(join(home, 'mcp-'));
      const run = await codex(model, `Echo it.\nTOOL ${tool} ${JSON.stringify({ text })}`, cwd, [
        '[mcp_servers.edgeway]',
        `url = "${stack.url}/mcp"`,
        'bearer_token_env_var = "EDGEWAY_KEY"',
        '',
      ]);
      assert.match(run.message, /^Tool result: /);
      assert.ok(run.message.includes(text), run.message);
      const call = run.items.find((item) => item.type === 'function_call');
      assert.deepEqual([call?.namespace, call?.name], ['mcp__edgeway', 'mock__echo']);
      // This run's call is logged: one more answered mock__echo call than before it.
      let calls = 0;
      for (let i = 0; i < 60 && calls <= before; i++) {
        await new Promise((r) => setTimeout(r, 250));
        calls = await echoCalls();
      }
      assert.equal(calls, before + 1);
    });
  }
});

describe('Vercel AI SDK, default provider (the Responses API)', () => {
  let provider;
  before(() => {
    provider = createOpenAI({ apiKey: stack.key, baseURL: `${stack.url}/v1` });
  });

  const lookup = () =>
    tool({
      description: 'Look a word up',
      inputSchema: z.object({ word: z.string() }),
      execute: async ({ word }) => lookupAnswer(word),
    });

  for (const [format, model] of [
    ['Anthropic-format (translated)', TRANSLATED],
    ['OpenAI-format (same format)', NATIVE],
  ]) {
    describe(`${format} model`, () => {
      test('generateText: a tool loop of two steps, the second reading the tool result', async () => {
        const res = await generateText({
          model: provider(model),
          tools: { lookup: lookup() },
          stopWhen: stepCountIs(2),
          prompt: LOOKUP_PROMPT,
          maxRetries: 0,
          abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        });
        assert.equal(res.steps.length, 2);
        assert.equal(res.steps[0].finishReason, 'tool-calls');
        assert.deepEqual(
          res.steps[0].toolCalls.map((c) => [c.toolName, c.input]),
          [['lookup', { word: 'gateway' }]],
        );
        assert.equal(res.finishReason, 'stop');
        assert.equal(res.text, `Tool result: ${lookupAnswer('gateway')}`);
        assert.ok(res.totalUsage.outputTokens > 0);
      });

      test('streamText: the same loop streamed, text deltas joining to the answer', async () => {
        const result = streamText({
          model: provider(model),
          tools: { lookup: lookup() },
          stopWhen: stepCountIs(2),
          prompt: LOOKUP_PROMPT,
          maxRetries: 0,
          abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS),
          onError: () => {},
        });
        let joined = '';
        for await (const delta of result.textStream) joined += delta;
        const steps = await result.steps;
        assert.equal(steps.length, 2);
        assert.deepEqual(
          steps[0].toolCalls.map((c) => [c.toolName, c.input]),
          [['lookup', { word: 'gateway' }]],
        );
        assert.equal(joined, `Tool result: ${lookupAnswer('gateway')}`);
        assert.equal(await result.text, joined);
        assert.equal(await result.finishReason, 'stop');
      });
    });
  }

  /**
   * With `store` on (its default), the SDK sends an earlier answer back as an `item_reference`: the gateway
   * resolves its own items (translated answers) from its store; OpenAI-format providers, given the client's
   * `store`, resolve theirs (the mock keeps answers as OpenAI does).
   */
  for (const [format, model, sameText] of [
    ['Anthropic-format', GENERATING, true],
    ['OpenAI-format', 'mock/mock-small', false],
  ]) {
    test(`a conversation on the ${format} model: the first answer, sent back by reference, is resolved`, async () => {
      const generating = provider(model);
      const call = { maxRetries: 0, abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS) };
      const first = await generateText({ model: generating, prompt: 'Tell me a story.', ...call });
      assert.match(first.response.messages[0].content[0].providerOptions.openai.itemId, /^msg_/);
      const second = await generateText({
        model: generating,
        messages: [
          { role: 'user', content: 'Tell me a story.' },
          ...first.response.messages,
          { role: 'user', content: 'And another one.' },
        ],
        ...call,
      });
      // The same conversation with the answer's text itself: the model got the same text. (The translated
      // conversations are the same messages, which seed the mock's words; the mock's own item has more fields.)
      const whole = await generateText({
        model: generating,
        messages: [
          { role: 'user', content: 'Tell me a story.' },
          { role: 'assistant', content: first.text },
          { role: 'user', content: 'And another one.' },
        ],
        providerOptions: { openai: { store: false } },
        ...call,
      });
      assert.equal(second.usage.inputTokens, whole.usage.inputTokens);
      if (sameText) assert.equal(second.text, whole.text);
      assert.notEqual(second.text, first.text);
    });
  }
});

describe('OpenAI Agents SDK, default mode (the Responses API)', () => {
  before(() => {
    setTracingDisabled(true);
    setDefaultOpenAIClient(
      new OpenAI({ apiKey: stack.key, baseURL: `${stack.url}/v1`, maxRetries: 0, timeout: CALL_TIMEOUT_MS }),
    );
  });

  const librarian = () =>
    new Agent({
      name: 'Librarian',
      instructions: 'Look words up with the lookup tool, then say what it found.',
      model: TRANSLATED,
      tools: [
        agentTool({
          name: 'lookup',
          description: 'Look a word up',
          parameters: z.object({ word: z.string() }),
          execute: async ({ word }) => lookupAnswer(word),
        }),
      ],
    });

  /** The tool calls and tool outputs among a run's new items. */
  const toolItems = (items) =>
    items
      .filter((item) => item.type === 'tool_call_item' || item.type === 'tool_call_output_item')
      .map((item) =>
        item.type === 'tool_call_item'
          ? ['call', item.rawItem.name, JSON.parse(item.rawItem.arguments)]
          : ['output', item.output],
      );

  test('run(): the agent calls its function tool on a translated model and answers from its output', async () => {
    const result = await run(librarian(), LOOKUP_PROMPT, {
      maxTurns: 3,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    assert.deepEqual(toolItems(result.newItems), [
      ['call', 'lookup', { word: 'gateway' }],
      ['output', lookupAnswer('gateway')],
    ]);
    assert.equal(result.finalOutput, `Tool result: ${lookupAnswer('gateway')}`);
  });

  test('run() streamed: the same run over the stream events', async () => {
    const result = await run(librarian(), LOOKUP_PROMPT, {
      stream: true,
      maxTurns: 3,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    let text = '';
    for await (const event of result.toTextStream()) text += event;
    await result.completed;
    assert.equal(result.error ?? null, null);
    assert.deepEqual(toolItems(result.newItems), [
      ['call', 'lookup', { word: 'gateway' }],
      ['output', lookupAnswer('gateway')],
    ]);
    assert.equal(result.finalOutput, `Tool result: ${lookupAnswer('gateway')}`);
    assert.equal(text, result.finalOutput);
  });
});

const Person = z.object({ name: z.string(), age: z.number().int(), tags: z.array(z.string()) });

describe('openai SDK: responses on an Anthropic-format model', () => {
  test('responses.create: the answer as a Response object', async () => {
    const text = 'Hello from the Responses API';
    const res = await client.responses.create({ model: TRANSLATED, input: text });
    assert.equal(res.object, 'response');
    assert.match(res.id, /^resp_/);
    assert.equal(res.status, 'completed');
    assert.equal(res.output_text, text);
    assert.deepEqual(
      res.output.map((item) => [item.type, item.role, item.content.map((part) => part.type)]),
      [['message', 'assistant', ['output_text']]],
    );
    assert.ok(res.usage.input_tokens > 0 && res.usage.output_tokens > 0);
    assert.equal(res.usage.total_tokens, res.usage.input_tokens + res.usage.output_tokens);
  });

  test('responses.stream: ordered, numbered events whose deltas join to the final response', async () => {
    const text = 'Streaming the Responses API through the edge';
    const stream = client.responses.stream({ model: TRANSLATED, input: text });
    const events = [];
    for await (const event of stream) events.push(event);
    const final = await stream.finalResponse();
    assert.equal(events[0].type, 'response.created');
    assert.equal(events[1].type, 'response.in_progress');
    assert.equal(events.at(-1).type, 'response.completed');
    assert.deepEqual(
      events.map((e) => e.sequence_number),
      events.map((_, i) => i),
    );
    const deltas = events.filter((e) => e.type === 'response.output_text.delta');
    assert.ok(deltas.length > 1, 'the text arrives in pieces');
    assert.equal(deltas.map((e) => e.delta).join(''), text);
    assert.equal(final.output_text, text);
    assert.equal(final.id, events[0].response.id);
    // Kept before its last event was relayed: retrievable at once.
    const stored = await client.responses.retrieve(final.id);
    assert.equal(stored.output_text, text);
  });

  test('responses.parse with zodTextFormat: the parsed object', async () => {
    const res = await client.responses.parse({
      model: 'claude-only/claude-sonnet-4-5',
      input: 'Describe a person.',
      text: { format: zodTextFormat(Person, 'person') },
    });
    assert.deepEqual(Person.parse(res.output_parsed), res.output_parsed);
  });

  test('function tools: the call, then its output as the next turn by previous_response_id', async () => {
    const tools = [
      {
        type: 'function',
        name: 'lookup',
        description: 'Look a word up',
        parameters: {
          type: 'object',
          properties: { word: { type: 'string' } },
          required: ['word'],
          additionalProperties: false,
        },
        strict: true,
      },
    ];
    const first = await client.responses.create({ model: TRANSLATED, input: LOOKUP_PROMPT, tools });
    const calls = first.output.filter((item) => item.type === 'function_call');
    assert.deepEqual(
      calls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [['lookup', { word: 'gateway' }]],
    );
    const second = await client.responses.create({
      model: TRANSLATED,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: calls[0].call_id, output: lookupAnswer('gateway') }],
      tools,
    });
    assert.equal(second.previous_response_id, first.id);
    assert.equal(second.output_text, `Tool result: ${lookupAnswer('gateway')}`);
  });

  test('previous_response_id: the gateway rebuilds the conversation the model is sent', async () => {
    const first = await client.responses.create({ model: GENERATING, input: 'Tell me a story.' });
    const second = await client.responses.create({
      model: GENERATING,
      previous_response_id: first.id,
      input: 'And another one.',
    });
    // The same conversation sent whole, and the second turn alone, neither stored.
    const whole = await client.responses.create({
      model: GENERATING,
      store: false,
      input: [
        { role: 'user', content: 'Tell me a story.' },
        { role: 'assistant', content: first.output_text },
        { role: 'user', content: 'And another one.' },
      ],
    });
    const alone = await client.responses.create({
      model: GENERATING,
      store: false,
      input: 'And another one.',
    });
    // The mock's words are seeded by every message it gets: the second turn's answer reflects the first.
    assert.equal(second.output_text, whole.output_text);
    assert.notEqual(second.output_text, alone.output_text);
    assert.equal(second.usage.input_tokens, whole.usage.input_tokens);
    assert.ok(second.usage.input_tokens > alone.usage.input_tokens);
    assert.equal(second.previous_response_id, first.id);
  });

  test('stored responses: retrieve, input items, delete; then 404', async () => {
    const first = await client.responses.create({ model: TRANSLATED, input: 'Keep this one.' });
    const second = await client.responses.create({
      model: TRANSLATED,
      previous_response_id: first.id,
      input: 'And this one.',
    });
    const stored = await client.responses.retrieve(second.id);
    assert.deepEqual(stored, second);
    // The request's own input items only (the conversation before it belongs to the first response).
    const items = [];
    for await (const item of client.responses.inputItems.list(second.id)) items.push(item);
    assert.deepEqual(
      items.map((item) => [item.type, item.role, item.content.map((part) => part.text)]),
      [['message', 'user', ['And this one.']]],
    );
    assert.ok(items.every((item) => typeof item.id === 'string' && item.id.length > 0));
    await client.responses.delete(second.id);
    await assert.rejects(client.responses.retrieve(second.id), OpenAI.NotFoundError);
    await assert.rejects(client.responses.inputItems.list(second.id), OpenAI.NotFoundError);
    // The first one is still there.
    assert.equal((await client.responses.retrieve(first.id)).output_text, 'Keep this one.');
  });

  test("another tenant's key sees none of them: 404, and no previous_response_id", async () => {
    const mine = await client.responses.create({ model: TRANSLATED, input: 'Only mine.' });
    const admin = async (path, body) => {
      const res = await fetch(`${stack.url}/admin${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 201, await res.clone().text());
      return res.json();
    };
    const tenant = await admin('/tenants', { name: 'other-responses' });
    const key = await admin('/keys', { tenant_id: tenant.id });
    const other = new OpenAI({ apiKey: key.key, baseURL: `${stack.url}/v1`, maxRetries: 0 });
    await assert.rejects(
      other.responses.retrieve(mine.id),
      (err) => err instanceof OpenAI.NotFoundError && err.code === 'response_not_found',
    );
    await assert.rejects(other.responses.inputItems.list(mine.id), OpenAI.NotFoundError);
    await assert.rejects(other.responses.delete(mine.id), OpenAI.NotFoundError);
    await assert.rejects(
      other.responses.create({ model: TRANSLATED, previous_response_id: mine.id, input: 'Continue.' }),
      (err) =>
        err instanceof OpenAI.BadRequestError &&
        err.code === 'previous_response_not_found' &&
        err.param === 'previous_response_id',
    );
    // Still the owner's.
    assert.equal((await client.responses.retrieve(mine.id)).output_text, 'Only mine.');
  });

  test('store: false keeps nothing', async () => {
    const res = await client.responses.create({ model: TRANSLATED, input: 'Forget this.', store: false });
    assert.equal(res.store, false);
    await assert.rejects(client.responses.retrieve(res.id), OpenAI.NotFoundError);
    await assert.rejects(
      client.responses.create({ model: TRANSLATED, previous_response_id: res.id, input: 'Continue.' }),
      (err) => err instanceof OpenAI.BadRequestError && err.code === 'previous_response_not_found',
    );
  });
});

test('nothing left the machine', () => {
  assert.deepEqual(offMachine, []);
});

// End to end: the agent clients people run, installed from the registry, through Edgeway to the mock LLM in
// the other wire format. Claude Code (its native binary, with its default thinking, effort, caching and beta
// headers) completes a task with a tool call on an Anthropic-format and on an OpenAI-format model, and its
// /context is answered by count_tokens; the Anthropic SDK carries thinking across turns on an OpenAI-format
// model; the structured-output helpers of the openai SDK, the Vercel AI SDK and LangChain work on an
// Anthropic-format model; Claude Code calls a tool of the tenant's MCP server through /mcp. Every client is bounded in time and kept off the internet (a dead proxy for
// anything but loopback).
import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import { ChatOpenAI } from '@langchain/openai';
import { generateObject } from 'ai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import * as z from 'zod';
import { ROOT } from '../../scripts/stack.mjs';
import { startTestStack } from './stack.mjs';

const PORT = 19287;
const MOCK = `http://127.0.0.1:${PORT + 1}`;

/** Two one-format views of the mock (Anthropic's and OpenAI's), and its fakes of Gemini and Bedrock. */
const VARS = {
  GEMINI_API_KEY: 'e2e-gemini-key',
  GEMINI_BASE_URL: MOCK,
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  AWS_REGION: 'us-east-1',
  BEDROCK_BASE_URL: MOCK,
  EDGEWAY_PROVIDERS: JSON.stringify([
    {
      id: 'claude-only',
      base_url: `${MOCK}/v1`,
      format: 'anthropic',
      api_key_secret: 'PROVIDER_KEY_CLAUDE_ONLY',
    },
    { id: 'gpt-only', base_url: `${MOCK}/v1`, api_key_secret: 'PROVIDER_KEY_GPT_ONLY' },
  ]),
  PROVIDER_KEY_CLAUDE_ONLY: 'claude-only-key',
  PROVIDER_KEY_GPT_ONLY: 'gpt-only-key',
  // Seals the MCP server's bearer token (the Claude Code → /mcp test).
  PROVIDER_KEYS_SECRET: 'e2e-agents-provider-keys-secret-0123456789',
};

const CLAUDE = join(ROOT, 'node_modules', '.bin', 'claude');
const CLAUDE_TIMEOUT_MS = 90_000;

let stack;
let home;

before(
  async () => {
    stack = await startTestStack(PORT, VARS);
    home = mkdtempSync(join(tmpdir(), 'edgeway-agents-'));
  },
  { timeout: 180_000 },
);

after(() => {
  stack?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

/**
 * Runs `claude -p` in `cwd` (a fresh directory by default) against the gateway; resolves with its
 * output. Nothing leaves the machine: its telemetry, updater and error reports are off, and any
 * host but loopback meets a proxy that does not exist.
 */
function claude(
  model,
  prompt,
  { cwd = mkdtempSync(join(home, 'work-')), args = [], key = stack.key, vars = {} } = {},
) {
  const env = {
    ...vars,
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: stack.url,
    ANTHROPIC_API_KEY: key,
    ANTHROPIC_SMALL_FAST_MODEL: model,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
  };
  return new Promise((resolve, reject) => {
    execFile(
      CLAUDE,
      ['-p', prompt, '--model', model, ...args],
      { cwd, env, timeout: CLAUDE_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`claude failed (${err.code ?? err.signal}): ${stderr || stdout}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}

/** The signatures of the thinking blocks in Claude Code's transcript of its session in `cwd`. */
function transcriptSignatures(cwd) {
  const projects = join(home, '.claude', 'projects');
  const dir = readdirSync(projects).find((d) => d === cwd.replace(/[^A-Za-z0-9]/g, '-'));
  assert.ok(dir, `no transcript for ${cwd}`);
  const lines = readdirSync(join(projects, dir))
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) =>
      readFileSync(join(projects, dir, f), 'utf8')
        .split('\n')
        .filter(Boolean),
    );
  return lines.flatMap((line) => {
    const content = JSON.parse(line).message?.content;
    return Array.isArray(content) ? content.filter((b) => b.type === 'thinking').map((b) => b.signature) : [];
  });
}

/** A new gateway key of the test tenant: its secret and id. */
async function newKey(name) {
  const res = await fetch(`${stack.url}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant_id: stack.tenantId, name }),
  });
  assert.equal(res.status, 201);
  const body = await res.json();
  return { secret: body.key, id: body.id };
}

/** The log rows of one key, once they have stopped arriving (logs reach D1 through a batching queue). */
async function rowsOf(keyId) {
  let rows = [];
  let still = 0;
  for (let i = 0; i < 60 && still < 4; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const res = await fetch(`${stack.url}/admin/logs?key_id=${keyId}&limit=100`, {
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
    assert.equal(res.status, 200);
    const now = (await res.json()).data;
    still = now.length > 0 && now.length === rows.length ? still + 1 : 0;
    rows = now;
  }
  return rows;
}

/**
 * Models of every format. Echo models answer a tool result with its text; the Gemini and Bedrock
 * models think (Claude Code asks for thinking), so their signed reasoning travels to Claude Code
 * and back to the fake that issued and checks it.
 */
for (const [format, model, signed] of [
  ['Anthropic', 'claude-only/echo', /^(?!edgeway:)./],
  ['OpenAI', 'gpt-only/echo', null],
  ['Gemini', 'gemini/gemini-2.5-flash', /^edgeway:gemini:./],
  ['Bedrock', 'bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0', /^edgeway:bedrock:./],
]) {
  describe(`Claude Code → ${format}-format model`, () => {
    test('completes a task with a tool call: the file is written and the answer reads the tool result', async () => {
      const content = `written through ${format}`;
      const input = JSON.stringify({ file_path: 'PLACEHOLDER', content });
      const prompt = (dir) =>
        `Write the file.\nTOOL Write ${input.replace('PLACEHOLDER', join(dir, 'out.txt'))}`;
      // The working directory is made first so the prompt can name a path inside it.
      const cwd = mkdtempSync(join(home, 'task-'));
      const run = await claude(model, prompt(cwd), {
        cwd,
        args: ['--allowedTools', 'Write', '--permission-mode', 'acceptEdits'],
      });
      assert.equal(readFileSync(join(cwd, 'out.txt'), 'utf8'), content);
      if (model.endsWith('/echo')) assert.match(run.stdout, /Tool result/);
      // The thinking Claude Code kept (and sent back on the tool-result turn, which the provider checked).
      const signatures = transcriptSignatures(cwd);
      if (signed)
        assert.ok(signatures.length > 0 && signatures.every((sig) => signed.test(sig)), String(signatures));
      else assert.deepEqual(signatures, []);
    });

    test('/context is answered by count_tokens, never by billable calls', async () => {
      // A key of its own, so its log rows are this command's alone.
      const key = await newKey(`context-${format}`);
      const run = await claude(model, '/context', { key: key.secret });
      assert.match(run.stdout, /Tokens/);
      const rows = await rowsOf(key.id);
      assert.ok(rows.length > 0, 'the counts were logged');
      const seenRows = JSON.stringify(rows.map((r) => [r.endpoint, r.status, r.error_code, r.output_tokens]));
      assert.deepEqual(
        [...new Set(rows.map((row) => row.endpoint))],
        ['/v1/messages/count_tokens'],
        seenRows,
      );
      assert.ok(
        rows.every((row) => row.status === 200 && row.cost_usd === 0),
        seenRows,
      );
    });
  });
}

describe('Anthropic SDK: thinking across turns on an OpenAI-format model', () => {
  test("the model's reasoning comes back as a thinking block, and the next turn carrying it is accepted", async () => {
    const anthropic = new Anthropic({
      apiKey: stack.key,
      baseURL: stack.url,
      maxRetries: 0,
      timeout: 30_000,
    });
    const tools = [
      {
        name: 'lookup',
        description: 'Look a word up',
        input_schema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
      },
    ];
    const first = await anthropic.messages.create({
      model: 'gpt-only/echo-think',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools,
      messages: [{ role: 'user', content: 'Look it up.\nTOOL lookup {"word":"gateway"}' }],
    });
    assert.equal(first.content[0].type, 'thinking');
    assert.ok(first.content[0].thinking.length > 0);
    const call = first.content.find((b) => b.type === 'tool_use');
    assert.deepEqual(call.input, { word: 'gateway' });
    const second = await anthropic.messages.create({
      model: 'gpt-only/echo-think',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools,
      messages: [
        { role: 'user', content: 'Look it up.\nTOOL lookup {"word":"gateway"}' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'a door' }] },
      ],
    });
    assert.equal(second.stop_reason, 'end_turn');
    assert.match(second.content.find((b) => b.type === 'text').text, /a door/);
  });
});

const Person = z.object({ name: z.string(), age: z.number().int(), tags: z.array(z.string()) });

/** A person parsed by the openai SDK's `parse` helper from `model`'s structured answer. */
async function parsedPerson(model) {
  const openai = new OpenAI({
    apiKey: stack.key,
    baseURL: `${stack.url}/v1`,
    maxRetries: 0,
    timeout: 30_000,
  });
  const res = await openai.chat.completions.parse({
    model,
    messages: [{ role: 'user', content: 'Describe a person.' }],
    response_format: zodResponseFormat(Person, 'person'),
  });
  return res.choices[0].message.parsed;
}

describe('Claude Code → /mcp', () => {
  test("calls a tool of the tenant's MCP server through the gateway, and the call is logged", async () => {
    const admin = (method, path, body) =>
      fetch(`${stack.url}/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (res) => {
        assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
        return res.json();
      });
    await admin('POST', `/tenants/${stack.tenantId}/mcp-servers`, {
      namespace: 'mock',
      url: `${MOCK}/mcp/healthy`,
      auth: { type: 'bearer', secret: 'mock-mcp-token' },
    });
    const key = await newKey('claude-code-mcp');
    const cwd = mkdtempSync(join(home, 'mcp-'));
    const config = join(cwd, 'mcp.json');
    const servers = {
      edgeway: { type: 'http', url: `${stack.url}/mcp`, headers: { Authorization: `Bearer ${key.secret}` } },
    };
    writeFileSync(config, JSON.stringify({ mcpServers: servers }));
    const tool = 'mcp__edgeway__mock__echo';
    const run = await claude(
      'claude-only/echo',
      `Echo it.\nTOOL ${tool} {"text":"through the MCP gateway"}`,
      {
        cwd,
        key: key.secret,
        args: ['--mcp-config', config, '--strict-mcp-config', '--allowedTools', tool],
        // The MCP tools in the request itself: the mock's TOOL directive calls only a tool it is given, and
        // cannot search for one first (Claude Code's default defers MCP tools behind a search tool).
        vars: { ENABLE_TOOL_SEARCH: 'false' },
      },
    );
    assert.match(run.stdout, /Tool result: through the MCP gateway/);
    const rows = await rowsOf(key.id);
    const call = rows.find((r) => r.endpoint === '/mcp');
    assert.ok(call, JSON.stringify(rows.map((r) => r.endpoint)));
    assert.equal(call.model, 'mock__echo');
    assert.equal(call.status, 200);
  });
});

describe('structured output helpers on an Anthropic-format model', () => {
  test('openai SDK: chat.completions.parse gives the parsed object', async () => {
    const parsed = await parsedPerson('claude-only/claude-sonnet-4-5');
    assert.deepEqual(Person.parse(parsed), parsed);
  });

  test('Vercel AI SDK: generateObject gives an object of the schema', async () => {
    const provider = createOpenAI({ apiKey: stack.key, baseURL: `${stack.url}/v1` });
    const { object } = await generateObject({
      model: provider.chat('claude-only/claude-sonnet-4-5'),
      schema: Person,
      prompt: 'Describe a person.',
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(30_000),
    });
    assert.deepEqual(Person.parse(object), object);
  });

  test('LangChain: withStructuredOutput gives an object of the schema', async () => {
    const model = new ChatOpenAI({
      model: 'claude-only/claude-sonnet-4-5',
      apiKey: stack.key,
      configuration: { baseURL: `${stack.url}/v1` },
      maxRetries: 0,
      timeout: 30_000,
    });
    const object = await model.withStructuredOutput(Person, { name: 'person' }).invoke('Describe a person.');
    assert.deepEqual(Person.parse(object), object);
  });

  test('an older Claude without native structured output answers through the forced tool', async () => {
    const parsed = await parsedPerson('claude-only/claude-3-5-haiku-latest');
    assert.deepEqual(Person.parse(parsed), parsed);
  });
});

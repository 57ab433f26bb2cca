/**
 * The MCP workload against a mock and a gateway already started (bench/lib/stack.mjs, the gateway with
 * `vars: { PROVIDER_KEYS_SECRET }`): registers the mock's /mcp/healthy as a global upstream, makes the
 * plain and the governed key, measures (bench/lib/workloads/mcp.mjs), then checks that the governed key's
 * features engaged: its Limiter counted every call it answered, and its guardrails redacted an e-mail
 * address and an AWS key id that the plain key let through. Used by `npm run bench -- --only mcp` and
 * by bench/mcp.mjs. `split` adds two keys with one governed feature each (limits only, guardrails only),
 * to tell which one costs what.
 */
import { openSession } from './mcp-clients.mjs';
import { profileDuring } from './profile.mjs';
import { MOCK_MCP_TOKEN, seedGlobalMcpServer, seedMcpKeys, toolCallsCounted } from './mcp-seed.mjs';
import { ECHO_TEXT, mcpWorkload } from './workloads/mcp.mjs';

/** Every tool-path guardrail on: the injection detector flags a tool result, PII and credentials are redacted. */
export const GOVERNED_GUARDRAILS = {
  injection: { tool_results: 'flag' },
  pii: { response: 'redact' },
  secrets: { request: 'redact', response: 'redact' },
};
/** Tool-call limits far above what the bench sends: every call is reserved and settled, none refused. */
export const GOVERNED_MCP = { tools: null, calls: { per_minute: 1_000_000, per_day: 100_000_000 } };
export const GOVERNED_LABEL =
  'tool-call limits of 1,000,000 a minute and 100,000,000 a day; guardrails `injection.tool_results: flag`, ' +
  '`pii.response: redact`, `secrets.request/response: redact`';

/** What the guardrails check sends: an e-mail address and an AWS access key id (both fake). */
const SENSITIVE = 'Contact jane.doe@example.com, key AKIAIOSFODNN7EXAMPLE, about the planning notes.';

/**
 * `profile`: { harnesses, concurrencies, requests, repeats, warmup }.
 * Returns the workload's result with `checks` and `governedLabel`; `problems` lists what did not engage.
 */
export async function runMcpBench(
  ctx,
  { mock, gateway, adminToken, keysSecret, profile, split = false, cpuProfile = null },
) {
  const mockMcp = `${mock.url}/mcp/healthy`;
  await seedGlobalMcpServer(gateway, { url: mockMcp, secret: MOCK_MCP_TOKEN, keysSecret });
  const keys = await seedMcpKeys(gateway, adminToken, {
    plain: {},
    governed: { guardrails: GOVERNED_GUARDRAILS, mcp: GOVERNED_MCP },
    ...(split ? { limits: { mcp: GOVERNED_MCP }, guardrails: { guardrails: GOVERNED_GUARDRAILS } } : {}),
  });
  const gatewayMcp = `${gateway.url}/mcp`;
  const targets = [
    {
      name: 'direct',
      label: 'direct to the mock',
      url: mockMcp,
      headers: { authorization: `Bearer ${MOCK_MCP_TOKEN}` },
      tool: 'echo',
    },
    {
      name: 'gateway',
      label: 'gateway, plain key',
      url: gatewayMcp,
      headers: { authorization: `Bearer ${keys.plain.key}` },
      tool: 'bench__echo',
    },
    {
      name: 'gateway-governed',
      label: 'gateway, limits + guardrails',
      url: gatewayMcp,
      headers: { authorization: `Bearer ${keys.governed.key}` },
      tool: 'bench__echo',
    },
  ];
  if (split)
    targets.push(
      {
        name: 'gateway-limits',
        label: 'gateway, limits only',
        url: gatewayMcp,
        headers: { authorization: `Bearer ${keys.limits.key}` },
        tool: 'bench__echo',
      },
      {
        name: 'gateway-guardrails',
        label: 'gateway, guardrails only',
        url: gatewayMcp,
        headers: { authorization: `Bearer ${keys.guardrails.key}` },
        tool: 'bench__echo',
      },
    );
  const result = await mcpWorkload(ctx, targets, {
    ...profile,
    pids: { gateway: gateway.pid, mock: mock.pid },
  });

  // Engagement: the sensitive echo through both keys, then the governed key's count in its Limiter.
  const problems = [];
  const echoed = {};
  for (const t of targets.slice(1, 3)) {
    const s = await openSession('sdk', t);
    try {
      echoed[t.name] = await s.call({ text: SENSITIVE });
    } finally {
      await s.close();
    }
  }
  const governedText = echoed['gateway-governed'].text ?? '';
  const guardrails = {
    governedRedacted:
      echoed['gateway-governed'].ok &&
      !governedText.includes('jane.doe@example.com') &&
      !governedText.includes('AKIAIOSFODNN7EXAMPLE'),
    plainIntact: echoed.gateway.ok && echoed.gateway.text === SENSITIVE,
    governedText: governedText.slice(0, 200),
  };
  if (!guardrails.governedRedacted)
    problems.push(`the governed key's guardrails did not redact: ${governedText.slice(0, 200)}`);
  if (!guardrails.plainIntact)
    problems.push(`the plain key's echo came back changed: ${echoed.gateway.text ?? echoed.gateway.error}`);

  const profiles = cpuProfile ? await profileCalls(ctx, gateway, targets.slice(1, 3), cpuProfile) : null;
  const sent = governedCalls(result) + 1 + (cpuProfile ? cpuProfile.calls + 8 : 0);
  const counted = await countedToday(gateway, keys.governed);
  const limits = { sent, counted: counted.count, error: counted.error ?? null };
  if (counted.count !== sent)
    problems.push(
      counted.count === null
        ? `the governed key's Limiter count could not be read: ${counted.error}`
        : `the governed key's Limiter counted ${counted.count} calls, ${sent} were answered`,
    );
  return {
    ...result,
    governedLabel: GOVERNED_LABEL,
    // How the governed key's `mcp` scope was set: the admin API, or D1 on a tree whose admin API lacks it.
    governedMcpVia: keys.governed.mcpVia,
    checks: { limits, guardrails },
    ...(profiles ? { profiles } : {}),
    problems,
  };
}

/** Calls the governed key made that were answered: warm-ups and measured runs of every harness and concurrency. */
function governedCalls(result) {
  let n = 0;
  for (const byC of Object.values(result.harnesses))
    for (const [c, run] of Object.entries(byC)) {
      const t = run.perTarget['gateway-governed'];
      n += t.requests - t.errors + Number(c) * Math.max(1, Math.ceil(result.warmup / Number(c)));
    }
  return n;
}

/** The day's request count in the key's tool-call scope; settles run after each answer, so it waits for them. */
async function countedToday(gateway, key) {
  let last = null;
  for (let i = 0; i < 20; i++) {
    const dump = await toolCallsCounted(gateway, key.tenantId, key.id);
    if (dump.error) return { count: null, error: dump.error };
    last = dump;
    const count = dayRequests(dump);
    if (count === null)
      return { count: null, error: `no day ledger in ${JSON.stringify(dump).slice(0, 300)}` };
    if (!heldCount(dump)) return { count };
    await new Promise((r) => setTimeout(r, 250));
  }
  return { count: dayRequests(last) };
}

/** Requests spent today in a Limiter scope dump (src/limits/protocol.ts ScopeDump), or null. */
export function dayRequests(dump) {
  const day = dump?.state?.ledger?.day;
  return day && Number.isFinite(day.requestsSpent) ? day.requestsSpent : null;
}

/** Requests still held (reserved, not yet settled) today in a scope dump. */
export function heldCount(dump) {
  return dump?.state?.ledger?.day?.requestsHeld ?? 0;
}

/**
 * A V8 CPU profile of the gateway isolate (its inspector must be on: `extra: { inspectorPort: 0 }`) during
 * `calls` raw tools/calls on one session, per target (8 warm-up calls first): busy ms per call and self
 * time by source module (bench/lib/profile.mjs). `{ calls, script }`: the count and the gateway's bundle.
 */
async function profileCalls(ctx, gateway, targets, { calls, script }) {
  const out = {};
  for (const t of targets) {
    ctx.log(`  mcp · CPU profile of ${calls} calls · ${t.label}`);
    const s = await openSession('raw', t);
    try {
      for (let i = 0; i < 8; i++) await s.call({ text: ECHO_TEXT });
      out[t.name] = await profileDuring(gateway.mf, 'edgeway', script, calls, async () => {
        for (let i = 0; i < calls; i++) await s.call({ text: ECHO_TEXT });
      });
      out[t.name].label = t.label;
    } finally {
      await s.close();
    }
  }
  return out;
}

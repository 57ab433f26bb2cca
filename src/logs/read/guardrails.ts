/**
 * Reads the guardrail_daily rollups for the admin API (migration 0011): per
 * UTC day and guardrail, the requests it fired on, blocked, and the values it
 * redacted, for everything, one tenant or one key. Days with nothing are left
 * out; rollups outlive raw-log retention.
 */
import * as z from 'zod';

export const GuardrailDay = z.object({
  day: z.string(),
  guardrail: z.string(),
  fired: z.number().describe('Requests the guardrail fired on (any action but off).'),
  blocked: z.number().describe('Requests it refused.'),
  redacted: z.number().describe('Values it replaced with placeholders.'),
});
export type GuardrailDay = z.output<typeof GuardrailDay>;

export interface GuardrailUsageQuery {
  tenantId?: string | undefined;
  keyId?: string | undefined;
  /** Inclusive UTC days, 'YYYY-MM-DD'. */
  from: string;
  to: string;
}

export async function guardrailUsage(db: D1Database, q: GuardrailUsageQuery): Promise<GuardrailDay[]> {
  const where = ['day >= ?', 'day <= ?'];
  const binds: string[] = [q.from, q.to];
  if (q.tenantId !== undefined) {
    where.push('tenant_id = ?');
    binds.push(q.tenantId);
  }
  if (q.keyId !== undefined) {
    where.push('key_id = ?');
    binds.push(q.keyId);
  }
  const { results } = await db
    .prepare(
      `SELECT day, guardrail, sum(fired) AS fired, sum(blocked) AS blocked, sum(redacted) AS redacted
       FROM guardrail_daily WHERE ${where.join(' AND ')} GROUP BY day, guardrail ORDER BY day, guardrail`,
    )
    .bind(...binds)
    .all();
  return results.map((r) => GuardrailDay.parse(r));
}

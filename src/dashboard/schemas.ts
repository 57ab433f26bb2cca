/**
 * The admin API's answers as the dashboard reads them: the API's own response
 * schemas (and their types), re-exported under the names the pages use, so
 * the dashboard reads exactly what the API documents in /admin/openapi.json.
 */
import type * as z from 'zod';
import { listOf } from '../admin/schemas';
import { Admin } from '../storage/admin-store';
import { AuditEntry } from '../storage/audit-log';
import { UsageReport as UsageReportSchema } from '../admin/resources/usage';
import { AnalyticsReportSchema } from '../admin/resources/analytics';
import { UsageReport as LimitsReportSchema } from '../limits/report';
import { EndUserView as EndUserViewSchema, OverrideList } from '../admin/resources/end-users';

export { AdminWithToken } from '../admin/access/admins';
export { Admin } from '../storage/admin-store';
export { AuditEntry } from '../storage/audit-log';
export { AlertList, type FiredAlertEntry as FiredAlert } from '../admin/resources/alerts';
export { EffectivePrice, PriceList } from '../admin/resources/limits';
export { LogList, NamedDetail as LogDetail, type NamedEntry as LogRow } from '../admin/resources/logs';
export { Route, RouteList } from '../admin/resources/route-schemas';
export { type ProviderInfo, ProviderList } from '../admin/resources/providers';
export {
  KeyList,
  KeyWithSecret,
  ProviderKeyInfo,
  ProviderKeyList,
  TenantList,
  TenantWritten,
} from '../admin/schemas';
export type { LogGuardrailEntry as Verdict } from '../logs/read/logs';
export type { GuardrailDay } from '../logs/read/guardrails';
export { ApiKey, Tenant } from '../storage/entities';
export {
  McpServer,
  McpServerList,
  McpServerTokenInfo,
} from '../admin/resources/mcp-server-schemas';

/** /admin/usage: totals per day or per model. */
export const UsageSeries = UsageReportSchema;
export type UsageSeries = z.output<typeof UsageSeries>;
/** /admin/analytics: series, percentiles, top-N spend, failed lookups over a range. */
export const AnalyticsReport = AnalyticsReportSchema;
export type AnalyticsReport = z.output<typeof AnalyticsReport>;
/** /admin/limits/tenants|keys/:id: limits, budgets, what is used and what remains. */
export const LimitsReport = LimitsReportSchema;
export type LimitsReport = z.output<typeof LimitsReport>;

/** /admin/tenants/:id/end-users/…: one end user, and the list of overrides. */
export const EndUserView = EndUserViewSchema;
export type EndUserView = z.output<typeof EndUserView>;
export const EndUserOverrides = OverrideList;
export type EndUserOverrides = z.output<typeof EndUserOverrides>;

/** /admin/admins and /admin/audit (owner-only lists and the audit trail). */
export const AdminList = listOf(Admin);
export const AuditList = listOf(AuditEntry);

/**
 * Where a tenant's end users are counted: USER_SHARDS Limiter objects per tenant, named
 * `<tenant id>/users/<n>`, an end user in shard n = FNV-1a(id) mod USER_SHARDS. One tenant object
 * tops out near 500 limited requests/s (a reserve and a settle each); spread over the shards its end
 * users' reservations take 32 times that, and each user's counters stay in one object, so every
 * end-user limit is checked and recorded in one synchronous step, exactly. The count is part of each
 * user's address: changing it would move users to fresh counters, so it is a constant, not a setting.
 */
export const USER_SHARDS = 32;

/** The shard an end user's counters live in (0 … USER_SHARDS − 1). */
export function shardOf(user: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < user.length; i++) {
    h ^= user.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % USER_SHARDS;
}

export const userShardName = (tenantId: string, shard: number) => `${tenantId}/users/${shard}`;

/** The Limiter object holding `user`'s counters and override. */
export function userShard<T extends Rpc.DurableObjectBranded | undefined>(
  ns: DurableObjectNamespace<T>,
  tenantId: string,
  user: string,
): DurableObjectStub<T> {
  return ns.get(ns.idFromName(userShardName(tenantId, shardOf(user))));
}

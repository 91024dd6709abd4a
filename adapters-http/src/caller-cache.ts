import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { loadCaller, PERMISSION_ENTITIES, systemClock, type Caller, type Clock, type DomainError, type SessionInfo, type Tenant } from '@tessera/core/internal';

/** How long a loaded caller is trusted without a change seen on the feed (changes made by other processes). */
const CALLER_TTL_MS = 10_000;

type Entry = { caller: Caller; loaded: number };

/**
 * The permissions of signed-in users, loaded once and kept until a role, a role link, a team
 * membership or the user changes (the tenant's change feed says so) or ten seconds pass.
 */
export class CallerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly watched = new Set<string>();

  constructor(private readonly clock: Clock = systemClock) {}

  async callerOf(tenant: Tenant, session: SessionInfo): Promise<Either<DomainError, Caller>> {
    this.watch(tenant);
    const key = `${tenant.name}/${session.userId}`;
    const hit = this.entries.get(key);
    const now = this.clock.now().getTime();
    if (hit && now - hit.loaded < CALLER_TTL_MS) return right(hit.caller);
    const loaded = await loadCaller(
      tenant.store,
      session.userId,
      tenant.entities().map((e) => e.logicalName),
    );
    if (isLeft(loaded)) return left(loaded.left);
    this.entries.set(key, { caller: loaded.right, loaded: now });
    return loaded;
  }

  private watch(tenant: Tenant): void {
    if (this.watched.has(tenant.name)) return;
    this.watched.add(tenant.name);
    tenant.feed.subscribe((change) => {
      if (!PERMISSION_ENTITIES.includes(change.entity)) return;
      for (const key of [...this.entries.keys()]) if (key.startsWith(`${tenant.name}/`)) this.entries.delete(key);
    });
  }

  forget(orgName: string, userId: string): void {
    this.entries.delete(`${orgName}/${userId}`);
  }
}

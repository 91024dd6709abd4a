/**
 * The access tokens identity providers issued to Tessera when a user signed in, kept by the
 * server only (never sent to a client). Microsoft's (provider `azure`) is the assertion the
 * on-behalf-of flow exchanges for the user's own Graph token (issue 18: the CloudFiles panel and
 * cloud calendars read `/me`, which the application's token cannot). Keyed by `graphUserKey`
 * (organization and user) and provider; a token past its expiry is not answered.
 */
export interface ProviderTokens {
  keep(key: string, provider: string, token: string, expiresAt: number): void;
  /** The kept token, or null when there is none or it expired by `now` (ms). */
  get(key: string, provider: string, now: number): string | null;
}

/** At most this many users' tokens are kept in memory; the least recently kept goes first. */
export const MAX_KEPT_PROVIDER_TOKENS = 10_000;

/**
 * The one-process keeper: a sign-in on another process is not seen (several processes share a
 * database keeper instead; issue 25). A restart forgets them: the user signs in with Microsoft again.
 */
export class InMemoryProviderTokens implements ProviderTokens {
  private readonly kept = new Map<string, { token: string; expiresAt: number }>();

  constructor(private readonly max = MAX_KEPT_PROVIDER_TOKENS) {}

  keep(key: string, provider: string, token: string, expiresAt: number): void {
    const k = `${provider}\u0000${key}`;
    this.kept.delete(k);
    this.kept.set(k, { token, expiresAt });
    while (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value as string);
  }

  get(key: string, provider: string, now: number): string | null {
    const k = this.kept.get(`${provider}\u0000${key}`);
    return k && now < k.expiresAt ? k.token : null;
  }
}

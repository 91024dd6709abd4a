import { createHash } from 'node:crypto';

/** Realtime streams a session, and a user, may have open at once (docs/api.md "Limits"). */
export const DEFAULT_STREAMS_PER_SESSION = 5;
export const DEFAULT_STREAMS_PER_USER = 5;

/**
 * The realtime streams open in this server process, counted per session and per user (issue 22
 * item 7: one token opened 300 streams). A stream is opened with a stream token, not the session
 * token, so the session of each stream token is noted when it is issued, until it expires; a token
 * issued by another process counts as a session of its own (the per-user cap still holds).
 */
export class StreamLimits {
  private readonly sessionOfToken = new Map<string, { session: string; expires: number }>();
  private readonly perSession = new Map<string, number>();
  private readonly perUser = new Map<string, number>();

  constructor(
    readonly maxPerSession: number = DEFAULT_STREAMS_PER_SESSION,
    readonly maxPerUser: number = DEFAULT_STREAMS_PER_USER,
  ) {}

  /** Notes which session a stream token was issued to (kept as a hash; forgotten when it expires). */
  issued(streamToken: string, sessionToken: string, expires: Date, now: Date): void {
    for (const [k, v] of this.sessionOfToken) if (v.expires <= now.getTime()) this.sessionOfToken.delete(k);
    this.sessionOfToken.set(hash(streamToken), { session: hash(sessionToken), expires: expires.getTime() });
  }

  /**
   * Counts a new stream of the user, or answers which cap it would break. The `close` returned
   * must be called once when the stream ends.
   */
  open(streamToken: string, orgName: string, userId: string): { close: () => void } | { refused: 'session' | 'user'; max: number } {
    const t = hash(streamToken);
    const session = this.sessionOfToken.get(t)?.session ?? t;
    const user = `${orgName}\u0000${userId.toLowerCase()}`;
    if ((this.perSession.get(session) ?? 0) >= this.maxPerSession) return { refused: 'session', max: this.maxPerSession };
    if ((this.perUser.get(user) ?? 0) >= this.maxPerUser) return { refused: 'user', max: this.maxPerUser };
    add(this.perSession, session, 1);
    add(this.perUser, user, 1);
    let open = true;
    return {
      close: () => {
        if (!open) return;
        open = false;
        add(this.perSession, session, -1);
        add(this.perUser, user, -1);
      },
    };
  }
}

const hash = (token: string): string => createHash('sha256').update(token).digest('base64url');

const add = (counts: Map<string, number>, key: string, n: number): void => {
  const next = (counts.get(key) ?? 0) + n;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
};

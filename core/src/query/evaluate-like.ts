/**
 * The `like` pattern language of Tessera, the same on every store (docs/api.md):
 * `%` any run of characters, `_` exactly one character, `\` makes the next character literal
 * (`\%`, `\_`, `\\`); `[` is always a literal (SQL Server's character classes are not offered).
 * Letters match without regard to ASCII case, as SQLite's LIKE and SQL Server's default collation do.
 */
export type LikeToken = { kind: 'any' } | { kind: 'one' } | { kind: 'text'; text: string };

/** The escape character of like patterns. */
export const LIKE_ESCAPE = '\\';

export const parseLikePattern = (pattern: string): LikeToken[] => {
  const tokens: LikeToken[] = [];
  const text = (c: string): void => {
    const last = tokens[tokens.length - 1];
    if (last && last.kind === 'text') last.text += c;
    else tokens.push({ kind: 'text', text: c });
  };
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === LIKE_ESCAPE) {
      // A trailing escape has nothing to escape: it stands for itself.
      text(i + 1 < chars.length ? chars[++i] : c);
    } else if (c === '%') {
      if (tokens[tokens.length - 1]?.kind !== 'any') tokens.push({ kind: 'any' });
    } else if (c === '_') tokens.push({ kind: 'one' });
    else text(c);
  }
  return tokens;
};

/** The literal prefix of a starts-with pattern (`abc%`), or null for any other shape. */
export const likePrefix = (tokens: LikeToken[]): string | null =>
  tokens.length === 2 && tokens[0].kind === 'text' && tokens[1].kind === 'any' ? tokens[0].text : null;

const foldAscii = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const reEscape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether `value` matches the pattern (the reference semantics the SQL stores reproduce). */
export const likeMatches = (tokens: LikeToken[], value: string): boolean => {
  const source = tokens
    .map((t) => (t.kind === 'any' ? '[\\s\\S]*' : t.kind === 'one' ? '[\\s\\S]' : reEscape(foldAscii(t.text))))
    .join('');
  return new RegExp(`^${source}$`, 'u').test(foldAscii(value));
};

/**
 * Compares two secrets in time that depends only on their lengths, not on where they differ.
 * Pure, so it runs in the browser too; server adapters may use node's timingSafeEqual on bytes.
 */
export const constantTimeEqual = (a: string, b: string): boolean => {
  const n = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  // charCodeAt past the end is NaN, and NaN | 0 is 0: the loop runs the same for every content.
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
};

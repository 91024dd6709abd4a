/// <reference lib="webworker" />
/**
 * The sign-up proof of work (spec 000 section 9), solved off the main thread: find a suffix of
 * letters and digits so that the SHA-256 hex of salt + suffix starts with the first 4
 * characters of the given hash.
 */
const hex = (buf: ArrayBuffer): string => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

self.onmessage = async (e: MessageEvent<{ salt: string; hash: string }>) => {
  const { salt, hash } = e.data;
  const prefix = hash.slice(0, 4).toLowerCase();
  const enc = new TextEncoder();
  for (let n = 0; ; n++) {
    const suffix = n.toString(36);
    const digest = hex(await crypto.subtle.digest('SHA-256', enc.encode(salt + suffix)));
    if (digest.startsWith(prefix)) {
      (self as unknown as Worker).postMessage({ solved: suffix });
      return;
    }
  }
};

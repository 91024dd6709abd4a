/**
 * Password hashing behind a port (issue 6: scrypt N=2^17, r=8, p=1 or Argon2id). The stored
 * string is self-describing (algorithm and parameters), so parameters can rise later and old
 * hashes still verify.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Compares in constant time; false for a malformed stored value. */
  verify(password: string, stored: string): Promise<boolean>;
}

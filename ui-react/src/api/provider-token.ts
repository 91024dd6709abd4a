import type { ApiClient } from './client.js';
import { KEYS, local } from '../state/storage.js';

/** What a provider sign-in hands over in the fragment: `#token={token}&org={organization}` (docs/api.md). */
export type ProviderToken = { token: string; org: string | null };

/** The token and organization of a fragment, or null when it carries no token. */
export const providerTokenOf = (hash: string): ProviderToken | null => {
  if (!hash.startsWith('#')) return null;
  const params = new URLSearchParams(hash.slice(1));
  const token = params.get('token');
  return token ? { token, org: params.get('org') || null } : null;
};

/**
 * Run once at start-up, on whatever page a provider sign-in lands (/, /popupLogin, a deep link):
 * stores the token as a password sign-in does, remembers the organization as the login page
 * does (keeping the host part of a 'host#org' value), and removes the fragment from the address
 * and the history, so the token is neither bookmarked nor shown. Answers whether it found one.
 */
export const takeProviderToken = (api: ApiClient, loc: Pick<Location, 'hash' | 'pathname' | 'search'> = location): boolean => {
  const found = providerTokenOf(loc.hash);
  if (!found) return false;
  api.setToken(found.token);
  if (found.org) local.set(KEYS.loginOrganization, api.host ? `${api.host}#${found.org}` : found.org);
  history.replaceState(history.state, '', loc.pathname + loc.search);
  return true;
};

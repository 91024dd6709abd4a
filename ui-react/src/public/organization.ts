/**
 * Where the login page takes the organization from (spec 000 section 2): the host's first
 * sub-domain when the host has more than two parts and does not start with 192, else the query
 * parameter org, else the last organization stored locally.
 */
export const organizationFromHost = (hostname: string): string | undefined => {
  const parts = hostname.split('.');
  // An IP address has no sub-domain: beyond the spec's 192 rule, no numeric address names an organization.
  if (/^\d+\.\d+\.\d+\.\d+$/.test(hostname) || hostname.includes(':')) return undefined;
  return parts.length > 2 && !hostname.startsWith('192') ? parts[0] : undefined;
};

export const initialOrganization = (hostname: string, queryOrg: string | null, stored: string | null): string =>
  organizationFromHost(hostname) ?? queryOrg ?? stored ?? '';

/** An organization value with '#' is a host and an organization (local development): 'localhost:3000#acme'. */
export const splitOrganization = (value: string): { host: string; organization: string } => {
  const i = value.indexOf('#');
  return i < 0 ? { host: '', organization: value.trim() } : { host: value.slice(0, i).trim(), organization: value.slice(i + 1).trim() };
};

/** The delays of spec 000 section 9. */
export const DELAYS = { afterLogin: 700, afterPasswordChange: 1000, errorReturn: 10_000, linkSentReturn: 10_000, trialRetry: 5000 } as const;

/** Where to go after signing in: the return URL, or /; one starting with /api/ loads as a full page. */
export const goToReturnUrl = (returnUrl: string | null | undefined, navigate: (to: string) => void): void => {
  const target = returnUrl && returnUrl.startsWith('/') && !returnUrl.startsWith('//') ? returnUrl : '/';
  if (target.startsWith('/api/')) location.href = target;
  else navigate(target);
};

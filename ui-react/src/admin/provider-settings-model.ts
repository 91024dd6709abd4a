import { signal } from '@preact/signals-react';
import type { ApiClient } from '../api/client.js';
import type { MessageKey, ProviderSettingAnswer, ProviderSettingsAnswer } from '../core.js';

/**
 * The Sign-in providers page (issue 18): how the server's providers are set up, as the
 * administrators' call answers it (secrets hidden). Each provider is a card of label/value rows.
 */
export type SettingRow = { readonly label: MessageKey; readonly value: string | { readonly key: MessageKey }; readonly mono?: boolean };

/** The rows of one provider's card, in reading order; addresses the protocol does not use are left out. */
export const providerRows = (p: ProviderSettingAnswer): SettingRow[] => {
  const rows: SettingRow[] = [
    { label: 'PvProtocol', value: p.protocol === 'oauth2-facebook' ? 'OAuth 2 (Facebook Login, Graph API)' : 'OpenID Connect' },
    { label: 'PvClientId', value: p.clientId ?? { key: 'PvSecretMissing' }, mono: p.clientId !== null },
    { label: 'PvSecret', value: { key: p.clientSecretSet ? 'PvSecretSet' : 'PvSecretMissing' } },
  ];
  if (p.issuer) rows.push({ label: 'PvIssuer', value: p.issuer, mono: true });
  if (p.authorizationUrl) rows.push({ label: 'PvAuthorize', value: p.authorizationUrl, mono: true });
  if (p.tokenUrl) rows.push({ label: 'PvToken', value: p.tokenUrl, mono: true });
  if (p.profileUrl) rows.push({ label: 'PvProfile', value: p.profileUrl, mono: true });
  rows.push({ label: 'PvScope', value: p.scope, mono: true });
  rows.push({ label: 'PvTrustEmail', value: { key: p.trustEmail ? 'PvYes' : 'PvNo' } });
  rows.push({ label: 'PvCallback', value: p.callbackUrl, mono: true });
  return rows;
};

/** The display names of the providers (spec 000 section 2: Google, Facebook, Apple, Microsoft). */
export const PROVIDER_TITLES: Readonly<Record<string, string>> = { google: 'Google', facebook: 'Facebook', apple: 'Apple', azure: 'Microsoft' };

export const providerSettingsModel = (api: Pick<ApiClient, 'providerSettings'>) => {
  const answer = signal<ProviderSettingsAnswer | null>(null);
  const error = signal<string | null>(null);
  const load = async (): Promise<void> => {
    try {
      answer.value = await api.providerSettings();
      error.value = null;
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    }
  };
  return { answer, error, load };
};

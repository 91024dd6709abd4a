import { describe, expect, it } from 'vitest';
import type { ProviderSettingAnswer } from '../core.js';
import { providerRows, providerSettingsModel } from './provider-settings-model.js';

const facebook: ProviderSettingAnswer = {
  provider: 'facebook',
  configured: true,
  protocol: 'oauth2-facebook',
  clientId: 'fb-app',
  clientSecretSet: true,
  issuer: null,
  authorizationUrl: 'https://www.facebook.com/v21.0/dialog/oauth',
  tokenUrl: 'https://graph.facebook.com/v21.0/oauth/access_token',
  profileUrl: 'https://graph.facebook.com/v21.0/me?fields=id,name,email',
  scope: 'email public_profile',
  trustEmail: true,
  callbackUrl: 'https://crm.example/auth/callback/facebook',
  variables: ['TESSERA_AUTH_FACEBOOK_CLIENT_ID'],
};

describe('the Sign-in providers page model (issue 18)', () => {
  it("a provider's card: protocol, client id, the secret only as set, its addresses, scope, e-mail trust, the callback to register", () => {
    expect(providerRows(facebook).map((r) => r.label)).toEqual(['PvProtocol', 'PvClientId', 'PvSecret', 'PvAuthorize', 'PvToken', 'PvProfile', 'PvScope', 'PvTrustEmail', 'PvCallback']);
    expect(providerRows(facebook).find((r) => r.label === 'PvSecret')?.value).toEqual({ key: 'PvSecretSet' });
    const google = providerRows({ ...facebook, provider: 'google', protocol: 'openid-connect', configured: false, clientId: null, clientSecretSet: false, issuer: 'https://accounts.google.com', authorizationUrl: null, tokenUrl: null, profileUrl: null });
    expect(google.map((r) => r.label)).toEqual(['PvProtocol', 'PvClientId', 'PvSecret', 'PvIssuer', 'PvScope', 'PvTrustEmail', 'PvCallback']);
    expect(google[1].value).toEqual({ key: 'PvSecretMissing' });
  });

  it('loads the answer, or keeps the refusal to show', async () => {
    const ok = providerSettingsModel({ providerSettings: async () => ({ providers: [facebook], publicUrl: null, allowedOrigins: [] }) });
    await ok.load();
    expect(ok.answer.value?.providers).toHaveLength(1);
    const refused = providerSettingsModel({ providerSettings: async () => Promise.reject(new Error('ERR_PERMISSION: the sign-in provider settings are for administrators')) });
    await refused.load();
    expect(refused.error.value).toContain('ERR_PERMISSION');
  });
});

import * as t from 'io-ts';

/**
 * GET /api/admin/providers (issue 18): how the server's sign-in providers are set up, for
 * administrators. Secrets never travel: `clientSecretSet` says only whether one is set.
 */
export const ProviderSettingCodec = t.type(
  {
    provider: t.string,
    configured: t.boolean,
    protocol: t.keyof({ 'openid-connect': null, 'oauth2-facebook': null }),
    clientId: t.union([t.string, t.null]),
    clientSecretSet: t.boolean,
    issuer: t.union([t.string, t.null]),
    authorizationUrl: t.union([t.string, t.null]),
    tokenUrl: t.union([t.string, t.null]),
    profileUrl: t.union([t.string, t.null]),
    scope: t.string,
    trustEmail: t.boolean,
    /** The address registered at the provider: `{public URL or this server}/auth/callback/{provider}`. */
    callbackUrl: t.string,
    variables: t.array(t.string),
  },
  'ProviderSetting',
);
export type ProviderSettingAnswer = t.TypeOf<typeof ProviderSettingCodec>;

export const ProviderSettingsAnswer = t.type(
  {
    providers: t.array(ProviderSettingCodec),
    /** TESSERA_PUBLIC_URL, or null when callbacks are built on the request's own address. */
    publicUrl: t.union([t.string, t.null]),
    /** TESSERA_AUTH_ALLOWED_ORIGINS */
    allowedOrigins: t.array(t.string),
  },
  'ProviderSettingsAnswer',
);
export type ProviderSettingsAnswer = t.TypeOf<typeof ProviderSettingsAnswer>;

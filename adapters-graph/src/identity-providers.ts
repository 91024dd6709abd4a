import { left } from 'fp-ts/lib/Either.js';
import { PROVIDER_NAMES, type IdentityProvider, type ProviderName, type ProviderSetting } from '@tessera/core/internal';

/**
 * One IdentityProvider over several adapters (issue 18): each provider name goes to the adapter
 * that speaks its protocol (Facebook's OAuth 2 flow, OpenID Connect for the others); the
 * composition root decides which serves which.
 */
export class IdentityProviders implements IdentityProvider {
  constructor(private readonly byProvider: Readonly<Partial<Record<ProviderName, IdentityProvider>>>) {}

  private of(p: ProviderName): IdentityProvider | undefined {
    return this.byProvider[p];
  }

  configured(): readonly ProviderName[] {
    return PROVIDER_NAMES.filter((p) => this.of(p)?.configured().includes(p) === true);
  }

  settings(): readonly ProviderSetting[] {
    return PROVIDER_NAMES.flatMap((p) => this.of(p)?.settings().filter((s) => s.provider === p) ?? []);
  }

  start: IdentityProvider['start'] = async (provider, redirectUri) => {
    const a = this.of(provider);
    return a ? a.start(provider, redirectUri) : left({ kind: 'NOT_CONFIGURED', message: `sign-in with ${provider} is not configured on this server` });
  };

  finish: IdentityProvider['finish'] = async (provider, params, expected) => {
    const a = this.of(provider);
    return a ? a.finish(provider, params, expected) : left({ kind: 'NOT_CONFIGURED', message: `sign-in with ${provider} is not configured on this server` });
  };
}

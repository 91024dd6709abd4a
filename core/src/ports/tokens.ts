/**
 * Typed tokens for dependency injection: `Token<Clock>` names the Clock port and carries its type,
 * so a composition root that binds or resolves it is type-checked (cli/src/di.ts). The core does
 * not import inversify: a token is a plain symbol, and a host that embeds the core wires the same
 * ports by hand. A port gets a token once something implements and binds it; a port typed by
 * the host (ExportWriter<Sink>) gets its token in the host's composition root.
 */
import type { Clock } from './clock.js';
import type { DirectionsService } from './directions-service.js';
import type { Geocoder } from './geocoder.js';
import type { GraphTokenSource } from './graph-token-source.js';
import type { IdGenerator } from './id-generator.js';
import type { IdentityProvider } from './identity-provider.js';
import type { ImportFiles } from './import-files.js';
import type { Mailer } from './mailer.js';
import type { OrganizationDirectory } from './organization-directory.js';
import type { PasswordHasher } from './password-hasher.js';
import type { SessionStore } from './session-store.js';
import type { AttemptLedger } from './attempt-ledger.js';
import type { SchemaStore } from './schema-store.js';
import type { ScriptSandbox } from './script-sandbox.js';
import type { ProviderTokens } from './provider-tokens.js';
import type { TenantRegistry } from './tenant-registry.js';

/** A symbol that names a port of type T (the optional brand exists only for the type checker). */
export type Token<T> = symbol & { readonly __port?: T };

/** The token of a port; `Symbol.for`, so two copies of the core agree on it. */
export const token = <T>(name: string): Token<T> => Symbol.for(`tessera.${name}`) as Token<T>;

export const Tokens = {
  Clock: token<Clock>('Clock'),
  IdGenerator: token<IdGenerator>('IdGenerator'),
  SchemaStore: token<SchemaStore>('SchemaStore'),
  SessionStore: token<SessionStore>('SessionStore'),
  AttemptLedger: token<AttemptLedger>('AttemptLedger'),
  OrganizationDirectory: token<OrganizationDirectory>('OrganizationDirectory'),
  TenantRegistry: token<TenantRegistry>('TenantRegistry'),
  PasswordHasher: token<PasswordHasher>('PasswordHasher'),
  Mailer: token<Mailer>('Mailer'),
  ImportFiles: token<ImportFiles>('ImportFiles'),
  DirectionsService: token<DirectionsService>('DirectionsService'),
  Geocoder: token<Geocoder>('Geocoder'),
  IdentityProvider: token<IdentityProvider>('IdentityProvider'),
  GraphTokenSource: token<GraphTokenSource>('GraphTokenSource'),
  ScriptSandbox: token<ScriptSandbox>('ScriptSandbox'),
  ProviderTokens: token<ProviderTokens>('ProviderTokens'),
} as const;

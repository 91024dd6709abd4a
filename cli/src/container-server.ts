import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { ContainerModule, type Container } from 'inversify';
import type { Express } from 'express';
import { InMemoryProviderTokens, ProviderSignInService, token, Tokens } from '@tessera/core/internal';
import { createApp, ProviderFlowSeal, randomSecret, type GraphRouteDeps, type ProviderRouteDeps } from '@tessera/adapters-http';
import {
  ClientCredentialsGraphTokenSource,
  graphDriveRouteDeps,
  directionsConfigFromEnv,
  GoogleDirectionsService,
  NominatimGeocoder,
  ReportDocumentRenderer,
  nominatimConfigFromEnv,
  graphTokenConfigFromEnv,
  OidcIdentityProvider,
  oidcClientsFromEnv,
  FacebookIdentityProvider,
  facebookClientFromEnv,
  IdentityProviders,
} from '@tessera/adapters-graph';
import { buildContainer, closeContainer, CliTokens, repositoryRoot, type HostConfig, type HostOverrides } from './container.js';
import { constant, provide, resolve } from './di.js';
import { startTriggers, triggersModule } from './trigger-runner.js';
import { blobRouteDepsFromEnv } from './blob-config.js';

export const ServerTokens = {
  HttpApp: token<Express>('cli.HttpApp'),
  ProviderRoutes: token<ProviderRouteDeps>('cli.ProviderRoutes'),
  GraphRoutes: token<GraphRouteDeps>('cli.GraphRoutes'),
} as const;

export type ServerOptions = HostConfig & {
  port: number;
  /** Listen address; loopback by default outside containers is safer, but the product serves its LAN. */
  host?: string;
  /** The web client's build; default ui-react/dist of this repository. */
  staticDir?: string;
  buildDate?: string;
  /** Where provider sign-in, cloud token and directions settings are read (default process.env; docs/api.md). */
  env?: Record<string, string | undefined>;
};

export type RunningServer = { url: string; port: number; container: Container; server: Server; close(): Promise<void> };

/** Provider sign-in, the cloud token and directions (docs/api.md "Provider sign-in, cloud token, distances"). */
const outboundServicesModule = (env: Record<string, string | undefined>) =>
  new ContainerModule(({ bind }) => {
    // Facebook's login is OAuth 2 with a Graph API profile, the others OpenID Connect (issue 18).
    const oidc = new OidcIdentityProvider(oidcClientsFromEnv(env));
    constant(bind, Tokens.IdentityProvider, new IdentityProviders({ google: oidc, apple: oidc, azure: oidc, facebook: new FacebookIdentityProvider(facebookClientFromEnv(env)) }));
    provide(bind, Tokens.GraphTokenSource, [Tokens.Clock], (clock) => new ClientCredentialsGraphTokenSource(graphTokenConfigFromEnv(env), clock));
    constant(bind, Tokens.DirectionsService, new GoogleDirectionsService(directionsConfigFromEnv(env)));
    constant(bind, Tokens.Geocoder, new NominatimGeocoder(nominatimConfigFromEnv(env)));
    // Providers' access tokens from sign-in, for Graph's on-behalf-of (issue 18); this process's memory.
    constant(bind, Tokens.ProviderTokens, new InMemoryProviderTokens());
  });

/** The Express application of the /api contract, every router wired from HttpDeps. */
/** A whole number from 1 written in the environment, else undefined (the setting's default). */
const positiveInt = (v: string | undefined): number | undefined => (v !== undefined && /^[1-9]\d{0,8}$/.test(v.trim()) ? Number(v.trim()) : undefined);

const httpAppModule = (options: ServerOptions, env: Record<string, string | undefined>) =>
  new ContainerModule(({ bind }) => {
    provide(bind, ServerTokens.GraphRoutes, [Tokens.GraphTokenSource, Tokens.DirectionsService], (tokens, directions) => ({ tokens, directions }));
    provide(
      bind,
      ServerTokens.ProviderRoutes,
      [Tokens.IdentityProvider, Tokens.OrganizationDirectory, Tokens.SessionStore, CliTokens.Organizations, CliTokens.Puzzles, Tokens.Clock, CliTokens.Logger, Tokens.ProviderTokens],
      (identity, directory, sessions, organizations, puzzles, clock, logger, providerTokens) => ({
        identity,
        providerSignIn: new ProviderSignInService({ directory, sessions, organizations, clock, randomSecret, config: { sessionIdleMs: options.sessionIdleMs } }),
        directory,
        sessions,
        puzzles,
        flows: new ProviderFlowSeal({ clock }),
        clock,
        logger,
        publicUrl: env.TESSERA_PUBLIC_URL?.trim() || undefined,
        allowedOrigins: (env.TESSERA_AUTH_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter((o) => o !== ''),
        providerTokens,
      }),
    );
    provide(
      bind,
      ServerTokens.HttpApp,
      [
        CliTokens.SignIn,
        Tokens.SessionStore,
        Tokens.OrganizationDirectory,
        Tokens.TenantRegistry,
        CliTokens.Organizations,
        CliTokens.Puzzles,
        Tokens.ImportFiles,
        CliTokens.ExportWriter,
        Tokens.Clock,
        CliTokens.Logger,
        ServerTokens.ProviderRoutes,
        ServerTokens.GraphRoutes,
        CliTokens.PublicLimits,
        Tokens.Geocoder,
        Tokens.ScriptSandbox,
      ],
      (signIn, sessions, directory, tenants, organizations, puzzles, importFiles, exports, clock, logger, providers, graph, publicLimits, geocoder, scripts) =>
        createApp({
          geocoder,
          // What's Next rules' scripts share the triggers' QuickJS threads (issue 16).
          scripts,
          documents: new ReportDocumentRenderer(),
          publicLimits,
          signIn,
          sessions,
          directory,
          tenants,
          organizations,
          puzzles,
          importFiles,
          exports,
          clock,
          logger,
          providers,
          graph,
          // Files of File and Image fields: the data folder's files/, or Azure blobs (issue 18; TESSERA_BLOB_*).
          blobs: blobRouteDepsFromEnv(env, options.dataDir, clock, logger),
          // The CloudFiles panel's drive and the cloud calendars on Microsoft Graph (issue 18; TESSERA_GRAPH_*).
          // On-behalf-of exchanges the user's Microsoft sign-in token (provider `azure`) for their Graph token.
          drive: graphDriveRouteDeps(env, { clock, appTokens: graph.tokens, logger, assertions: (u) => providers.providerTokens?.get(u.key, 'azure', clock.now().getTime()) ?? null }),
          config: {
            puzzleDifficultyBits: options.attemptLimits?.puzzleDifficultyBits,
            buildDate: options.buildDate ?? new Date().toISOString(),
            staticDir: options.staticDir ?? join(repositoryRoot, 'ui-react', 'dist'),
            // Behind a reverse proxy, the client's address (rate limits, session records) comes from X-Forwarded-For.
            trustProxy: Number.parseInt(process.env.TESSERA_TRUST_PROXY ?? '0', 10) || 0,
            // Issue 22 items 2, 5 and 7 (docs/api.md); unset or not a positive number: the defaults (64, 5, 5, 2).
            jsonMaxDepth: positiveInt(env.TESSERA_JSON_MAX_DEPTH),
            streamsPerSession: positiveInt(env.TESSERA_STREAMS_PER_SESSION),
            streamsPerUser: positiveInt(env.TESSERA_STREAMS_PER_USER),
            exportsPerUser: positiveInt(env.TESSERA_EXPORTS_PER_USER),
          },
        }),
    );
  });

/** The server's container: the shared graph plus the outbound services and the Express application. */
export const buildServerContainer = async (options: ServerOptions, overrides: HostOverrides = {}): Promise<Container> => {
  const c = await buildContainer(options, overrides);
  const env = options.env ?? process.env;
  c.loadSync(outboundServicesModule(env), httpAppModule(options, env), triggersModule(env));
  return c;
};

/** Starts `tessera serve`: port 0 picks a free one (tests). */
export const startServer = async (options: ServerOptions, overrides: HostOverrides = {}): Promise<RunningServer> => {
  const container = await buildServerContainer(options, overrides);
  const server = createServer(resolve(container, ServerTokens.HttpApp));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host ?? '0.0.0.0', () => ok());
  }).catch(async (e: unknown) => {
    await closeContainer(container);
    throw e;
  });
  const port = (server.address() as AddressInfo).port;
  // Trigger runs (issue 16): queued runs of every organization, resumed after a restart.
  const stopTriggers = startTriggers(container);
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url: `http://localhost:${port}`,
    port,
    container,
    server,
    close: async () => {
      await new Promise<void>((ok) => {
        server.close(() => ok());
        // Open streams and keep-alive connections would hold close() forever.
        for (const s of sockets) s.destroy();
      });
      await stopTriggers();
      await closeContainer(container);
    },
  };
};

export const uiBuilt = (staticDir = join(repositoryRoot, 'ui-react', 'dist')): boolean => existsSync(join(staticDir, 'index.html'));

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Express, RequestHandler, Router } from 'express';
import {
  ProviderSignInService,
  Tokens,
  type Clock,
  type DirectionsService,
  type GraphTokenSource,
  type IdentityProvider,
  type OrganizationDirectory,
  type SessionStore,
  type SignInService,
} from '@tessera/core/internal';
import {
  createApp,
  importExportRoutes,
  ProviderFlowSeal,
  randomSecret,
  type GraphRouteDeps,
  type OrganizationFactory,
  type ProviderRouteDeps,
  type PuzzleSeal,
  type Tenants,
} from '@tessera/adapters-http';
import {
  ClientCredentialsGraphTokenSource,
  directionsConfigFromEnv,
  GoogleDirectionsService,
  graphTokenConfigFromEnv,
  OidcIdentityProvider,
  oidcClientsFromEnv,
} from '@tessera/adapters-graph';
import { buildContainer, closeContainer, CliTokens, repositoryRoot, type HostConfig, type HostOverrides } from './container.js';

export const ServerTokens = {
  App: Symbol.for('HttpApp'),
  ExtraRoutes: Symbol.for('ExtraRoutes'),
  ProviderRoutes: Symbol.for('ProviderRoutes'),
  GraphRoutes: Symbol.for('GraphRoutes'),
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

/** The server's container: the shared graph plus the Express application. */
export const buildServerContainer = async (
  options: ServerOptions,
  overrides: HostOverrides = {},
): Promise<Container> => {
  const c = buildContainer(options, overrides);
  // The import and export calls (issue 7) under /api, behind the same session guard.
  c.bind(ServerTokens.ExtraRoutes).toResolvedValue(
    (tenants: Tenants, clock: Clock, logger: Logger) => [(guard: RequestHandler) => importExportRoutes({ guard, tenants, clock, logger })],
    [CliTokens.Tenants, Tokens.Clock, Tokens.Logger],
  );
  // Provider sign-in, the cloud token and directions (docs/api.md "Provider sign-in, cloud token, distances").
  const env = options.env ?? process.env;
  c.bind<IdentityProvider>(Tokens.IdentityProvider).toConstantValue(new OidcIdentityProvider(oidcClientsFromEnv(env)));
  c.bind<GraphTokenSource>(Tokens.GraphTokenSource).toResolvedValue(
    (clock: Clock) => new ClientCredentialsGraphTokenSource(graphTokenConfigFromEnv(env), clock),
    [Tokens.Clock],
  );
  c.bind<DirectionsService>(Tokens.DirectionsService).toConstantValue(new GoogleDirectionsService(directionsConfigFromEnv(env)));
  c.bind<GraphRouteDeps>(ServerTokens.GraphRoutes).toResolvedValue(
    (tokens: GraphTokenSource, directions: DirectionsService) => ({ tokens, directions }),
    [Tokens.GraphTokenSource, Tokens.DirectionsService],
  );
  c.bind<ProviderRouteDeps>(ServerTokens.ProviderRoutes).toResolvedValue(
    (
      identity: IdentityProvider,
      directory: OrganizationDirectory,
      sessions: SessionStore,
      organizations: OrganizationFactory,
      puzzles: PuzzleSeal,
      clock: Clock,
      logger: Logger,
    ) => ({
      identity,
      providerSignIn: new ProviderSignInService({ directory, sessions, organizations, clock, randomSecret, config: { sessionIdleMs: options.sessionIdleMs } }),
      directory,
      sessions,
      puzzles,
      flows: new ProviderFlowSeal(),
      clock,
      logger,
      publicUrl: env.TESSERA_PUBLIC_URL?.trim() || undefined,
      allowedOrigins: (env.TESSERA_AUTH_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter((o) => o !== ''),
    }),
    [Tokens.IdentityProvider, Tokens.OrganizationDirectory, Tokens.SessionStore, CliTokens.Organizations, CliTokens.Puzzles, Tokens.Clock, Tokens.Logger],
  );
  c.bind<Express>(ServerTokens.App).toResolvedValue(
    (
      signIn: SignInService,
      sessions: SessionStore,
      directory: OrganizationDirectory,
      tenants: Tenants,
      organizations: OrganizationFactory,
      puzzles: PuzzleSeal,
      clock: Clock,
      logger: Logger,
      extraRoutes: Array<(guard: RequestHandler) => Router>,
      providers: ProviderRouteDeps,
      graph: GraphRouteDeps,
    ) =>
      createApp({
        providers,
        graph,
        signIn,
        sessions,
        directory,
        tenants,
        organizations,
        puzzles,
        clock,
        logger,
        extraRoutes,
        config: {
          buildDate: options.buildDate ?? new Date().toISOString(),
          staticDir: options.staticDir ?? join(repositoryRoot, 'ui-react', 'dist'),
          // Behind a reverse proxy, the client's address (rate limits, session records) comes from X-Forwarded-For.
          trustProxy: Number.parseInt(process.env.TESSERA_TRUST_PROXY ?? '0', 10) || 0,
        },
      }),
    [
      CliTokens.SignIn,
      Tokens.SessionStore,
      Tokens.OrganizationDirectory,
      CliTokens.Tenants,
      CliTokens.Organizations,
      CliTokens.Puzzles,
      Tokens.Clock,
      Tokens.Logger,
      ServerTokens.ExtraRoutes,
      ServerTokens.ProviderRoutes,
      ServerTokens.GraphRoutes,
    ],
  );
  return c;
};

/** Starts `tessera serve`: port 0 picks a free one (tests). */
export const startServer = async (
  options: ServerOptions,
  overrides: HostOverrides = {},
): Promise<RunningServer> => {
  const container = await buildServerContainer(options, overrides);
  const app = container.get<Express>(ServerTokens.App);
  const server = createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host ?? '0.0.0.0', () => ok());
  });
  const port = (server.address() as AddressInfo).port;
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
      await closeContainer(container);
    },
  };
};

export const uiBuilt = (staticDir = join(repositoryRoot, 'ui-react', 'dist')): boolean => existsSync(join(staticDir, 'index.html'));

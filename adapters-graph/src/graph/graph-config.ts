import { left, type Either } from 'fp-ts/lib/Either.js';
import type { CalendarGateway, Clock, DriveGateway, GraphFailure, GraphTokenSource } from '@tessera/core/internal';
import { graphTokenConfigFromEnv } from '../graph-token-source.js';
import { GraphCalendarGateway } from './graph-calendar-gateway.js';
import { GraphDriveGateway } from './graph-drive-gateway.js';
import { DEFAULT_GRAPH_REQUEST_OPTIONS, GraphRequests } from './graph-requests.js';
import { ApplicationGraphTokens, OnBehalfOfGraphTokens, type UserAssertions } from './graph-user-tokens.js';

/** docs/operations.md "Microsoft Graph": every setting of the drive and calendars. */
export type GraphSettings = {
  /** TESSERA_GRAPH_URL, default https://graph.microsoft.com/v1.0. */
  graphUrl: string;
  /** TESSERA_GRAPH_DRIVE_ROOT: `/drives/{id}/root`, `/sites/{id}/drive/root`, `/users/{upn}/drive/root`; unset: each user's own drive. */
  driveRoot: string | null;
  /** TESSERA_GRAPH_USER_TOKENS: `application` (default; `/users/{email}` with the client-credentials token) or `on-behalf-of` (`/me` with the user's delegated token). */
  userTokens: 'application' | 'on-behalf-of';
  /** TESSERA_GRAPH_MAX_RETRY_AFTER seconds, default 10: a longer Retry-After fails the call. */
  maxRetryAfterMs: number;
  /** TESSERA_GRAPH_UPLOAD_MAX_MB, default 100: the largest file the CloudFiles panel uploads. */
  uploadMaxBytes: number;
};

const number = (v: string | undefined, fallback: number, min: number, max: number): number => {
  const n = Number(v);
  return v !== undefined && v.trim() !== '' && Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
};

export const graphSettingsFromEnv = (env: Record<string, string | undefined>): GraphSettings => {
  const v = (k: string): string | undefined => env[`TESSERA_GRAPH_${k}`]?.trim() || undefined;
  return {
    graphUrl: (v('URL') ?? 'https://graph.microsoft.com/v1.0').replace(/\/$/, ''),
    driveRoot: v('DRIVE_ROOT') ?? null,
    userTokens: v('USER_TOKENS') === 'on-behalf-of' ? 'on-behalf-of' : 'application',
    maxRetryAfterMs: number(v('MAX_RETRY_AFTER'), 10, 0, 120) * 1000,
    uploadMaxBytes: number(v('UPLOAD_MAX_MB'), 100, 1, 1024) * 1024 * 1024,
  };
};

const notConfigured = async (): Promise<Either<GraphFailure, never>> =>
  left({ kind: 'NOT_CONFIGURED', message: 'the cloud drive and calendar are not configured on this server' });

/** The drive and calendars of a server without Graph settings: every call is NOT_CONFIGURED (501). */
export const UNCONFIGURED_DRIVE: DriveGateway = { children: notConfigured, createFolder: notConfigured, rename: notConfigured, remove: notConfigured, upload: notConfigured };
export const UNCONFIGURED_CALENDAR: CalendarGateway = { calendars: notConfigured, events: notConfigured };

export type GraphGateways = { drive: DriveGateway; calendar: CalendarGateway; settings: GraphSettings };

/**
 * The gateways from the environment (TESSERA_GRAPH_*). `appTokens` is the server's
 * client-credentials source (shared with GET /api/azure/accesstoken); `assertions` gives a user's
 * Microsoft token for on-behalf-of.
 */
export const graphGatewaysFromEnv = (
  env: Record<string, string | undefined>,
  deps: { clock: Clock; appTokens: GraphTokenSource & { forget?(): void }; assertions: UserAssertions },
): GraphGateways => {
  const settings = graphSettingsFromEnv(env);
  const credentials = graphTokenConfigFromEnv(env);
  if (!credentials) return { drive: UNCONFIGURED_DRIVE, calendar: UNCONFIGURED_CALENDAR, settings };
  const tokens = settings.userTokens === 'on-behalf-of' ? new OnBehalfOfGraphTokens(credentials, deps.assertions, deps.clock) : new ApplicationGraphTokens(deps.appTokens);
  const requests = new GraphRequests(settings.graphUrl, tokens, { ...DEFAULT_GRAPH_REQUEST_OPTIONS, maxRetryAfterMs: settings.maxRetryAfterMs });
  return { drive: new GraphDriveGateway(requests, settings.driveRoot), calendar: new GraphCalendarGateway(requests), settings };
};


/**
 * What the server's drive routes need (adapters-http DriveRouteDeps), from the environment: the
 * composition root passes its client-credentials source and logger. On-behalf-of needs each user's
 * Microsoft token; until the Microsoft sign-in keeps it, `assertions` finds none (docs/cloud-files.md).
 */
export const graphDriveRouteDeps = <L>(
  env: Record<string, string | undefined>,
  deps: { clock: Clock; appTokens: GraphTokenSource & { forget?(): void }; logger: L; assertions?: UserAssertions },
): { drive: DriveGateway; calendar: CalendarGateway; uploadMaxBytes: number; logger: L } => {
  const g = graphGatewaysFromEnv(env, { clock: deps.clock, appTokens: deps.appTokens, assertions: deps.assertions ?? (() => null) });
  return { drive: g.drive, calendar: g.calendar, uploadMaxBytes: g.settings.uploadMaxBytes, logger: deps.logger };
};

import type { Request, RequestHandler, Response, Router } from 'express';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import type { Logger } from 'pino';
import {
  API,
  checkCloudWindow,
  checkItemName,
  cloudCalendarFeed,
  inputError,
  requireFolder,
  resolveDriveFolder,
  SYSTEM_USER_ENTITY,
  systemCaller,
  type CalendarGateway,
  type DomainError,
  type DriveFolder,
  type DriveGateway,
  type DriveTarget,
  type GraphFailure,
  graphUserKey,
  type GraphUser,
} from '@tessera/core/internal';
import { sendDomainError, sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { signed, type Signed } from '../session-guard.js';

export type DriveRouteDeps = {
  drive: DriveGateway;
  calendar: CalendarGateway;
  /** The largest file /api/drive/upload takes (TESSERA_GRAPH_UPLOAD_MAX_MB). */
  uploadMaxBytes: number;
  logger?: Logger;
};

/** Uploads of one user at once: each is held in memory until Graph has it. */
export const DRIVE_UPLOADS_PER_USER = 2;

/** Spec 001 section 8: Graph errors are logged and shown; the status says whose fault it is. */
const sendGraphFailure = (res: Response, f: GraphFailure, logger?: Logger): void => {
  if (f.kind !== 'NOT_CONFIGURED') logger?.warn({ graph: f.kind }, `OneDrive: ${f.message}`);
  if (f.kind === 'NOT_CONFIGURED') return sendText(res, 501, `ERR_NOT_CONFIGURED: ${f.message}`);
  if (f.kind === 'NOT_FOUND') return sendText(res, 404, `ERR_NOT_FOUND: ${f.message}`);
  if (f.kind === 'CONFLICT') return sendText(res, 409, `ERR_CONFLICT: ${f.message}`);
  sendText(res, 502, `ERR_UPSTREAM: ${f.message}`);
};

/** The signed-in user as Graph knows them: the session's user and their e-mail address. */
const graphUserOf = async (s: Signed): Promise<GraphUser> => {
  const user = await s.tenant.store.retrieveById(systemCaller(), SYSTEM_USER_ENTITY, s.caller.userId);
  const email = isLeft(user) ? '' : String(user.right.emailaddress ?? '');
  return { key: graphUserKey(s.tenant.name, s.caller.userId), email };
};

const folderOf = (s: Signed, target: DriveTarget, operation: 'read' | 'update'): Promise<Either<DomainError, DriveFolder>> =>
  resolveDriveFolder({ store: s.tenant.store, entities: s.tenant.entities() }, s.caller, target, operation);

/** The raw body up to `max` bytes; null when it is longer. */
const readBody = async (req: Request, max: number): Promise<Uint8Array | null> => {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) return null;
    chunks.push(c as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
};

const nameOf = (name: string): Either<DomainError, string> => {
  const n = checkItemName(name);
  return isLeft(n) ? left(inputError(n.left)) : right(n.right);
};

/**
 * The CloudFiles panel's drive calls and the calendar view's cloud events (issue 18;
 * docs/cloud-files.md): the record is read as the caller (listing needs read, changes need
 * update), the panel is found in the entity's forms, and Graph is asked for the user.
 */
export const driveRoutes = (deps: DriveRouteDeps, guard: RequestHandler): Router => {
  const uploading = new Map<string, number>();

  /** Creates the record's folder and its parents when they are missing (an existing one is fine). */
  const ensureFolder = async (user: GraphUser, folder: readonly string[]): Promise<Either<GraphFailure, void>> => {
    for (let i = 1; i <= folder.length; i++) {
      const r = await deps.drive.createFolder(user, folder.slice(0, i - 1), folder[i - 1], 'fail');
      if (isLeft(r) && r.left.kind !== 'CONFLICT') return r;
    }
    return right(undefined);
  };

  return routerOf(guard, [
    route(API.driveList, async (body, _req, res) => {
      const s = signed(res);
      const f = await folderOf(s, body, 'read');
      if (isLeft(f)) return sendDomainError(res, f.left);
      if (f.right.folder === null) return sendAnswer(res, API.driveList, { folder: f.right.root, items: [], missing: true });
      const user = await graphUserOf(s);
      const startsWith = body.startsWith ?? f.right.panel.fileFilter;
      const items = await deps.drive.children(user, f.right.folder, { startsWith: startsWith || undefined, thumbnails: body.thumbnails ?? true });
      if (isLeft(items)) {
        if (items.left.kind === 'NOT_FOUND') return sendAnswer(res, API.driveList, { folder: f.right.folder, items: [], missing: true });
        return sendGraphFailure(res, items.left, deps.logger);
      }
      sendAnswer(res, API.driveList, { folder: f.right.folder, items: items.right, missing: false });
    }),

    route(API.driveFolder, async (body, _req, res) => {
      const s = signed(res);
      const f = await folderOf(s, body, 'update');
      if (isLeft(f)) return sendDomainError(res, f.left);
      const folder = requireFolder(f.right);
      if (isLeft(folder)) return sendDomainError(res, folder.left);
      const name = nameOf(body.name);
      if (isLeft(name)) return sendDomainError(res, name.left);
      const user = await graphUserOf(s);
      let made = await deps.drive.createFolder(user, folder.right, name.right, 'rename');
      if (isLeft(made) && made.left.kind === 'NOT_FOUND') {
        const parents = await ensureFolder(user, folder.right);
        if (isLeft(parents)) return sendGraphFailure(res, parents.left, deps.logger);
        made = await deps.drive.createFolder(user, folder.right, name.right, 'rename');
      }
      if (isLeft(made)) return sendGraphFailure(res, made.left, deps.logger);
      sendAnswer(res, API.driveFolder, made.right);
    }),

    route(API.driveRename, async (body, _req, res) => {
      const s = signed(res);
      const f = await folderOf(s, body, 'update');
      if (isLeft(f)) return sendDomainError(res, f.left);
      const folder = requireFolder(f.right);
      if (isLeft(folder)) return sendDomainError(res, folder.left);
      const [from, to] = [nameOf(body.name), nameOf(body.newName)];
      if (isLeft(from)) return sendDomainError(res, from.left);
      if (isLeft(to)) return sendDomainError(res, to.left);
      const r = await deps.drive.rename(await graphUserOf(s), [...folder.right, from.right], to.right);
      if (isLeft(r)) return sendGraphFailure(res, r.left, deps.logger);
      sendAnswer(res, API.driveRename, r.right);
    }),

    route(API.driveDelete, async (body, _req, res) => {
      const s = signed(res);
      const f = await folderOf(s, body, 'update');
      if (isLeft(f)) return sendDomainError(res, f.left);
      const folder = requireFolder(f.right);
      if (isLeft(folder)) return sendDomainError(res, folder.left);
      const name = nameOf(body.name);
      if (isLeft(name)) return sendDomainError(res, name.left);
      const r = await deps.drive.remove(await graphUserOf(s), [...folder.right, name.right]);
      if (isLeft(r)) return sendGraphFailure(res, r.left, deps.logger);
      sendText(res, 200, 'OK');
    }),

    route(API.driveUpload, async (q, req, res) => {
      const s = signed(res);
      if (!q.entity || !q.id || !q.panel || !q.fileName) return sendDomainError(res, inputError('Invalid drive upload query: entity, id, panel and fileName are needed'));
      const path = q.path ? q.path.split('/').filter((p) => p !== '') : [];
      const f = await folderOf(s, { entity: q.entity, id: q.id, panel: q.panel, path }, 'update');
      if (isLeft(f)) return sendDomainError(res, f.left);
      const folder = requireFolder(f.right);
      if (isLeft(folder)) return sendDomainError(res, folder.left);
      const name = nameOf(q.fileName);
      if (isLeft(name)) return sendDomainError(res, name.left);
      const who = `${s.tenant.name}\u0000${s.caller.userId}`;
      const mine = uploading.get(who) ?? 0;
      if (mine >= DRIVE_UPLOADS_PER_USER) {
        res.setHeader('Retry-After', '2');
        return sendText(res, 429, `ERR_TOO_MANY_REQUESTS: at most ${DRIVE_UPLOADS_PER_USER} uploads of one user at once`);
      }
      uploading.set(who, mine + 1);
      try {
        const bytes = await readBody(req, deps.uploadMaxBytes);
        if (bytes === null) {
          res.setHeader('Connection', 'close');
          return sendText(res, 413, `ERR_TOO_LARGE: the file is over the limit of ${Math.round(deps.uploadMaxBytes / 1024 / 1024)} MB`);
        }
        const r = await deps.drive.upload(await graphUserOf(s), folder.right, name.right, bytes, q.replace === 'true' ? 'replace' : 'rename');
        if (isLeft(r)) return sendGraphFailure(res, r.left, deps.logger);
        sendAnswer(res, API.driveUpload, r.right);
      } finally {
        const left = (uploading.get(who) ?? 1) - 1;
        if (left === 0) uploading.delete(who);
        else uploading.set(who, left);
      }
    }),

    route(API.cloudCalendar, async (body, _req, res) => {
      const s = signed(res);
      const window = checkCloudWindow(body.start, body.end);
      if (isLeft(window)) return sendDomainError(res, inputError(`Invalid cloud calendar: ${window.left}`));
      const feed = await cloudCalendarFeed(deps.calendar, await graphUserOf(s), window.right.start, window.right.end);
      if (isLeft(feed)) return sendGraphFailure(res, feed.left, deps.logger);
      sendAnswer(res, API.cloudCalendar, feed.right);
    }),
  ]);
};

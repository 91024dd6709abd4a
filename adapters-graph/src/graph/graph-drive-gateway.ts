import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import {
  DRIVE_MAX_PAGES,
  DRIVE_SIMPLE_UPLOAD_MAX,
  driveFileOf,
  GraphDriveItem,
  GraphDriveItemPage,
  GraphUploadSession,
  type ChildrenOptions,
  type ConflictBehavior,
  type DriveFile,
  type DriveGateway,
  type GraphFailure,
  type GraphUser,
} from '@tessera/core/internal';
import type { GraphRequests } from './graph-requests.js';

/** Upload session chunks must be multiples of 320 KiB (Graph's documentation); ten of them is 3.2 MB a request. */
export const UPLOAD_CHUNK_BYTES = 10 * 320 * 1024;

/** What the panel reads of an item; the download URL must be named to come with $select. */
const SELECT = 'id,name,size,lastModifiedDateTime,createdDateTime,webUrl,folder,file,createdBy,@microsoft.graph.downloadUrl';

/** OData string literal: single quotes doubled. */
const odataString = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/**
 * The CloudFiles panel's drive on Microsoft Graph (spec 002 section 7 "Drive and blob"): items are
 * addressed by path below the drive root (`{root}:/{a}/{b}:/children`), each name URL-encoded.
 * The root is configured (`/drives/{id}/root`, `/sites/{id}/drive/root`) or the user's own drive.
 */
export class GraphDriveGateway implements DriveGateway {
  constructor(
    private readonly graph: GraphRequests,
    /** A configured root for every user, or null: the user's own drive (`/me/drive/root` or `/users/{email}/drive/root`). */
    private readonly driveRoot: string | null,
    private readonly chunkBytes = UPLOAD_CHUNK_BYTES,
  ) {}

  private root(user: GraphUser): string {
    return (this.driveRoot ?? `${this.graph.tokens.userPath(user)}/drive/root`).replace(/\/$/, '');
  }

  /** `{root}:/a/b` for an item, `{root}` for the root itself. */
  private item(user: GraphUser, path: readonly string[]): string {
    return path.length === 0 ? this.root(user) : `${this.root(user)}:/${path.map(encodeURIComponent).join('/')}`;
  }

  /** `{root}:/a/b:/{action}` or `{root}/{action}`. */
  private action(user: GraphUser, path: readonly string[], action: string): string {
    return path.length === 0 ? `${this.root(user)}/${action}` : `${this.item(user, path)}:/${action}`;
  }

  async children(user: GraphUser, folder: readonly string[], options: ChildrenOptions): Promise<Either<GraphFailure, DriveFile[]>> {
    const query: Record<string, string> = { $select: options.thumbnails ? `${SELECT},thumbnails` : SELECT };
    if (options.thumbnails) query.$expand = 'thumbnails';
    if (options.startsWith) query.$filter = `startswith(name,${odataString(options.startsWith)})`;
    const items = await this.graph.pages(user, { method: 'GET', path: this.action(user, folder, 'children'), query }, GraphDriveItemPage, DRIVE_MAX_PAGES);
    return isLeft(items) ? items : right(items.right.map(driveFileOf));
  }

  async createFolder(user: GraphUser, parent: readonly string[], name: string, conflict: ConflictBehavior): Promise<Either<GraphFailure, DriveFile>> {
    const r = await this.graph.send(
      user,
      { method: 'POST', path: this.action(user, parent, 'children'), body: { name, folder: {}, '@microsoft.graph.conflictBehavior': conflict } },
      GraphDriveItem,
    );
    return isLeft(r) ? r : right(driveFileOf(r.right.body!));
  }

  async rename(user: GraphUser, item: readonly string[], newName: string): Promise<Either<GraphFailure, DriveFile>> {
    const r = await this.graph.send(user, { method: 'PATCH', path: this.item(user, item), body: { name: newName } }, GraphDriveItem);
    return isLeft(r) ? r : right(driveFileOf(r.right.body!));
  }

  async remove(user: GraphUser, item: readonly string[]): Promise<Either<GraphFailure, void>> {
    const r = await this.graph.send(user, { method: 'DELETE', path: this.item(user, item) }, null);
    return isLeft(r) ? r : right(undefined);
  }

  async upload(user: GraphUser, folder: readonly string[], name: string, content: Uint8Array, conflict: ConflictBehavior): Promise<Either<GraphFailure, DriveFile>> {
    const path = [...folder, name];
    if (content.byteLength <= DRIVE_SIMPLE_UPLOAD_MAX) {
      const r = await this.graph.send(
        user,
        { method: 'PUT', path: this.action(user, path, 'content'), query: { '@microsoft.graph.conflictBehavior': conflict }, bytes: content },
        GraphDriveItem,
      );
      return isLeft(r) ? r : right(driveFileOf(r.right.body!));
    }
    const session = await this.graph.send(
      user,
      { method: 'POST', path: this.action(user, path, 'createUploadSession'), body: { item: { '@microsoft.graph.conflictBehavior': conflict, name } } },
      GraphUploadSession,
    );
    if (isLeft(session)) return session;
    const uploadUrl = session.right.body!.uploadUrl;
    const total = content.byteLength;
    for (let from = 0; from < total; from += this.chunkBytes) {
      const to = Math.min(from + this.chunkBytes, total);
      const last = to === total;
      const r = await this.graph.send(
        user,
        { method: 'PUT', path: uploadUrl, anonymous: true, bytes: content.subarray(from, to), headers: { 'content-range': `bytes ${from}-${to - 1}/${total}` } },
        last ? GraphDriveItem : null,
      );
      if (isLeft(r)) {
        // An abandoned session would hold the name until it expires: cancel it (best effort).
        await this.graph.send(user, { method: 'DELETE', path: uploadUrl, anonymous: true }, null);
        return r;
      }
      if (last) return r.right.body ? right(driveFileOf(r.right.body)) : left({ kind: 'UPSTREAM', message: 'Request [upload session] failed: no item after the last range' });
    }
    return left({ kind: 'UPSTREAM', message: 'Request [upload session] failed: empty file' });
  }
}

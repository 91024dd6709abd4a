/**
 * The cloud drive (Microsoft Graph OneDrive) of the CloudFiles panel (spec 001 "Cloud file
 * browser", spec 002 section 7 "Drive and blob"). Paths are lists of folder names below the
 * drive's root, never strings a caller could smuggle `..` or `:` through; the adapter encodes them.
 */
import type { Either } from 'fp-ts/lib/Either.js';

/** Who asks: the drive and calendar are read with this user's rights (the on-behalf-of token), or as this user's mailbox (`/users/{email}`). */
export type GraphUser = { key: string; email: string };

/** A GraphUser's key: the organization and the user (also the key of their kept provider tokens). */
export const graphUserKey = (organization: string, userId: string): string => `${organization}\u0000${userId}`;

/**
 * NOT_CONFIGURED: no Graph on this server; NOT_FOUND: the folder or item does not exist (Graph 404);
 * CONFLICT: a name is taken (Graph 409); UPSTREAM: Graph or the token service failed, the message
 * is the spec's 'Request [{path}] failed: {text}'.
 */
export type GraphFailure = { kind: 'NOT_CONFIGURED' | 'NOT_FOUND' | 'CONFLICT' | 'UPSTREAM'; message: string };

/** Spec 001 "Drive file": name, id, folder, size, lastModifiedDateTime, download URL, createdBy, thumbnails. */
export type DriveFile = {
  id: string;
  name: string;
  folder: boolean;
  /** Folders: how many items they hold. */
  childCount: number | null;
  size: number;
  lastModifiedDateTime: string;
  /** A short-lived pre-authenticated address of the content (Graph's @microsoft.graph.downloadUrl); null for folders. */
  downloadUrl: string | null;
  webUrl: string | null;
  createdBy: string | null;
  mimeType: string | null;
  /** The medium thumbnail's address when thumbnails were asked for and Graph has one. */
  thumbnail: string | null;
};

/** 'rename' keeps both (Graph appends a number), 'replace' overwrites, 'fail' answers CONFLICT. */
export type ConflictBehavior = 'rename' | 'replace' | 'fail';

export type ChildrenOptions = { startsWith?: string; thumbnails?: boolean };

export interface DriveGateway {
  /** The folder's items, following @odata.nextLink (at most DRIVE_MAX_PAGES pages). */
  children(user: GraphUser, folder: readonly string[], options: ChildrenOptions): Promise<Either<GraphFailure, DriveFile[]>>;
  createFolder(user: GraphUser, parent: readonly string[], name: string, conflict: ConflictBehavior): Promise<Either<GraphFailure, DriveFile>>;
  rename(user: GraphUser, item: readonly string[], newName: string): Promise<Either<GraphFailure, DriveFile>>;
  remove(user: GraphUser, item: readonly string[]): Promise<Either<GraphFailure, void>>;
  /** PUT {path}:/content up to DRIVE_SIMPLE_UPLOAD_MAX bytes, an upload session in chunks beyond. */
  upload(user: GraphUser, folder: readonly string[], name: string, content: Uint8Array, conflict: ConflictBehavior): Promise<Either<GraphFailure, DriveFile>>;
}

/** Spec 001 section 9: drive paging max 100 pages. */
export const DRIVE_MAX_PAGES = 100;
/** Graph: PUT {path}:/content is for files up to 4 MB; larger ones go through an upload session. */
export const DRIVE_SIMPLE_UPLOAD_MAX = 4 * 1024 * 1024;

import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-react';
import type { BlobUploadAnswer, EntityRecord } from '../core.js';
import { ServerError } from '../api/client.js';
import type { SaveParticipant } from '../form/record-form-model.js';
import { fileKind } from './file-kind.js';
import { downscaleImage, ImageLoadError, type PreparedImage } from './image-resize.js';

/**
 * One File or Image field of a record form (issue 18; spec 001 sections 4 and 5): the file the
 * user chose waits here, not in the record, until the record is saved. The save sequence asks the
 * field (a SaveParticipant) before the record is sent: the file is uploaded then, and the field is
 * patched with the stored blob's NAME; a failed upload vetoes the save with 'Server Error: {text}'
 * and the status, so the record is never stored with a reference to a blob that is not there.
 * Images are made smaller in the browser first (the field's maximum, default 1200 px, 0 none).
 */

/** What the field needs of the API client (ApiClient.uploadBlob, F1's contract). */
export type BlobApi = {
  uploadBlob(entity: string, field: string, file: Blob, fileName: string, onProgress?: (loaded: number, total: number) => void): Promise<BlobUploadAnswer>;
};

/** A chosen file not stored yet. `uploaded` is the blob name once the upload succeeded (a later veto keeps it for the next save). */
export type PendingFile = {
  blob: Blob;
  fileName: string;
  size: number;
  contentType: string;
  /** an address of the bytes for the thumbnail and the preview (an object URL in the browser) */
  url: string;
  width?: number;
  height?: number;
  /** the image was made smaller (or turned) before the upload */
  resized: boolean;
  uploaded?: string;
};

/** Why a chosen file was not taken. */
export type ChooseFailure = { _tag: 'NotAnImage' } | { _tag: 'CannotLoadImage' };

export type FileFieldOptions = {
  api: BlobApi;
  entity: string;
  field: string;
  /** an Image field: only images, made smaller to `maxImageSize` */
  image: boolean;
  /** the longer side's maximum in px; 0 means none */
  maxImageSize: number;
  /** the text of an upload failure ('Server Error: {text}' with the status; see uploadFailureText) */
  failureText: (e: unknown) => string;
  /** image preparation (the browser's canvas; tests pass their own) */
  prepare?: (file: Blob, fileName: string, max: number) => Promise<PreparedImage>;
  /** object URLs of chosen files (tests pass their own) */
  urls?: { create: (b: Blob) => string; revoke: (url: string) => void };
};

/** 'Server Error: {text} ({status})' (spec 001 section 8: "Blob upload failure: 'Server Error: {text}' with status"). */
export const uploadFailureText = (e: unknown, serverError: (text: string) => string): string => {
  if (e instanceof ServerError) return `${serverError(e.text || e.statusText)} (${e.status})`;
  return serverError(e instanceof Error ? e.message : String(e));
};

const browserUrls = {
  create: (b: Blob) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(b) : ''),
  revoke: (url: string) => {
    if (url.startsWith('blob:')) URL.revokeObjectURL(url);
  },
};

export type FileFieldModel = ReturnType<typeof fileFieldModel>;

export const fileFieldModel = ({ api, entity, field, image, maxImageSize, failureText, prepare = downscaleImage, urls = browserUrls }: FileFieldOptions) => {
  const pending = signal<PendingFile | null>(null);
  /** an image is being made smaller */
  const preparing = signal(false);
  /** the upload's progress 0..1 while it runs, else null */
  const progress = signal<number | null>(null);
  const error = signal('');

  const take = (next: PendingFile | null) => {
    const old = pending.value;
    if (old && old.url !== next?.url) urls.revoke(old.url);
    pending.value = next;
  };

  /**
   * A file chosen by the button or dropped: kept as the pending file (an image made smaller
   * first). An Image field takes images only; one the browser cannot read is 'Cannot load image'.
   */
  const choose = async (file: Blob, fileName: string): Promise<ChooseFailure | null> => {
    error.value = '';
    const isImage = fileKind(fileName, file.type) === 'image';
    if (image && !isImage) return { _tag: 'NotAnImage' };
    if (!isImage) {
      take({ blob: file, fileName, size: file.size, contentType: file.type, url: urls.create(file), resized: false });
      return null;
    }
    preparing.value = true;
    try {
      const p = await prepare(file, fileName, image ? maxImageSize : 0);
      take({ blob: p.blob, fileName: p.fileName, size: p.blob.size, contentType: p.blob.type || file.type, url: urls.create(p.blob), width: p.width, height: p.height, resized: p.resized });
      return null;
    } catch (e) {
      if (!(e instanceof ImageLoadError)) throw e;
      // A File field takes any file: an image the browser cannot draw is sent as it is.
      if (!image) {
        take({ blob: file, fileName, size: file.size, contentType: file.type, url: urls.create(file), resized: false });
        return null;
      }
      return { _tag: 'CannotLoadImage' };
    } finally {
      preparing.value = false;
    }
  };

  /** A turned image from the preview replaces the field's file (uploaded when the record is saved). */
  const replace = (p: PreparedImage): void => {
    error.value = '';
    take({ blob: p.blob, fileName: p.fileName, size: p.blob.size, contentType: p.blob.type, url: urls.create(p.blob), width: p.width, height: p.height, resized: true });
  };

  /** Drops the pending file: the field shows its stored value again. */
  const discard = (): void => {
    batch(() => {
      take(null);
      error.value = '';
    });
  };

  const setError = (message: string): void => {
    error.value = message;
  };

  /**
   * The save hook: upload the pending file, then patch the field with the blob's name; a failure
   * vetoes the save. An upload that succeeded is not sent again (a later participant may veto).
   */
  const participant: SaveParticipant = {
    beforeSave: async (): Promise<{ patch?: EntityRecord } | { veto: string }> => {
      const p = pending.value;
      if (!p) return {};
      if (p.uploaded) return { patch: { [field]: p.uploaded } };
      batch(() => {
        progress.value = 0;
        error.value = '';
      });
      try {
        const stored = await api.uploadBlob(entity, field, p.blob, p.fileName, (loaded, total) => {
          progress.value = total > 0 ? Math.min(1, loaded / total) : null;
        });
        if (pending.value === p) pending.value = { ...p, uploaded: stored.name };
        return { patch: { [field]: stored.name } };
      } catch (e) {
        const message = failureText(e);
        error.value = message;
        return { veto: message };
      } finally {
        progress.value = null;
      }
    },
    // The record is stored with the name: the file is no longer pending.
    afterSave: async () => {
      if (pending.value?.uploaded) take(null);
    },
    dirty: computed(() => pending.value !== null),
    // A required file field with a file chosen is filled: the upload happens after the required check.
    fills: computed(() => (pending.value !== null ? [field] : [])),
  };

  return {
    field,
    image,
    maxImageSize,
    pending: pending as ReadonlySignal<PendingFile | null>,
    preparing: preparing as ReadonlySignal<boolean>,
    progress: progress as ReadonlySignal<number | null>,
    error: error as ReadonlySignal<string>,
    choose,
    replace,
    discard,
    setError,
    participant,
  };
};

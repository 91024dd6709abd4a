import { batch, computed, signal } from '@preact/signals-react';
import type { DriveFileAnswer, DriveListAnswer, Panel } from '@tessera/core/internal';
import type { PreviewFile } from '../files/cloud-file-preview-model.js';
import type { PreparedImage } from '../files/image-resize.js';

/**
 * The CloudFiles panel (spec 001 "Cloud file browser"): a record's folder in the cloud drive,
 * browsed through the server's drive calls (docs/cloud-files.md). Create folder, rename, delete,
 * upload (button or drop; images downscaled to the panel's maxImageSize, default 1200, 0 none)
 * and preview. The empty state is the panel's emptyMessage or 'No OneDrive folder for this
 * record.'; failures show as 'Server Error: {text}' (a common error line, spec 001 section 8).
 */

export type DriveTargetRef = { entity: string; id: string; panel: string };

/** The calls the panel makes (ApiClient's), so the model is tested without a server. */
export type DriveApi = {
  driveList(body: DriveTargetRef & { path?: string[]; startsWith?: string; thumbnails?: boolean }): Promise<DriveListAnswer>;
  driveFolder(body: DriveTargetRef & { path?: string[]; name: string }): Promise<DriveFileAnswer>;
  driveRename(body: DriveTargetRef & { path?: string[]; name: string; newName: string }): Promise<DriveFileAnswer>;
  driveDelete(body: DriveTargetRef & { path?: string[]; name: string }): Promise<void>;
  driveUpload(target: DriveTargetRef & { path?: readonly string[] }, file: Blob, fileName: string, replace?: boolean): Promise<DriveFileAnswer>;
};

export type CloudFilesDeps = {
  api: DriveApi;
  /** Downscales an image before upload (the canvas in the browser); files it cannot read go as they are. */
  downscale: (file: Blob, fileName: string, max: number) => Promise<PreparedImage>;
};

/** Spec 001 section 4: cloud file images are resized on upload, default maximum 1200 px. */
export const CLOUD_MAX_IMAGE_SIZE = 1200;

const IMAGE = /^image\/(jpeg|jpg|pjpeg|png|webp|bmp|avif)$/i;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The largest side an uploaded image keeps: the panel's maxImageSize (0: none), else 1200. */
export const maxImageSizeOfPanel = (panel: Pick<Panel, 'maxImageSize'>): number =>
  typeof panel.maxImageSize === 'number' && Number.isFinite(panel.maxImageSize) && panel.maxImageSize >= 0 ? panel.maxImageSize : CLOUD_MAX_IMAGE_SIZE;

/** Folders first, then names as people sort them. */
const ordered = (items: readonly DriveFileAnswer[]): DriveFileAnswer[] =>
  [...items].sort((a, b) => (a.folder === b.folder ? a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }) : a.folder ? -1 : 1));

export const cloudFilesModel = (panel: Panel, target: DriveTargetRef | null, deps: CloudFilesDeps) => {
  const items = signal<DriveFileAnswer[]>([]);
  /** the sub-folders opened below the record's folder */
  const path = signal<string[]>([]);
  /** the record's folder from the drive root (breadcrumb) */
  const folder = signal<string[]>([]);
  const missing = signal(false);
  const loading = signal(false);
  const error = signal('');
  /** what is under way: 'Uploading x.jpg', a rename... ('' when idle) */
  const busy = signal('');
  const previewIndex = signal<number | null>(null);
  /** The server has no Graph (501): the panel shows its empty state without tools, as before issue 18. */
  const notConfigured = signal(false);
  let generation = 0;

  const files = computed(() => items.value.filter((i) => !i.folder));
  const isEmpty = computed(() => !loading.value && !error.value && items.value.length === 0);
  const sub = (): string[] | undefined => (path.value.length ? [...path.value] : undefined);

  const load = async (): Promise<void> => {
    if (!target) {
      batch(() => {
        missing.value = true;
        items.value = [];
      });
      return;
    }
    const mine = ++generation;
    loading.value = true;
    error.value = '';
    try {
      const r = await deps.api.driveList({ ...target, path: sub(), ...(panel.fileFilter ? { startsWith: panel.fileFilter } : {}), thumbnails: true });
      if (mine !== generation) return;
      batch(() => {
        items.value = ordered(r.items);
        folder.value = r.folder;
        missing.value = r.missing;
      });
    } catch (e) {
      if (mine !== generation) return;
      if ((e as { status?: unknown }).status === 501)
        batch(() => {
          notConfigured.value = true;
          missing.value = true;
          items.value = [];
        });
      else error.value = message(e);
    } finally {
      if (mine === generation) loading.value = false;
    }
  };

  /** Runs a change, then reloads the folder; a failure stays on screen (the folder is reloaded anyway). */
  const change = async (what: string, run: () => Promise<unknown>): Promise<boolean> => {
    if (!target) return false;
    busy.value = what;
    error.value = '';
    try {
      await run();
      return true;
    } catch (e) {
      error.value = message(e);
      return false;
    } finally {
      busy.value = '';
      const failed = error.value;
      await load();
      if (failed && !error.value) error.value = failed;
    }
  };

  const open = (item: DriveFileAnswer): void => {
    if (item.folder) {
      path.value = [...path.value, item.name];
      void load();
    } else {
      const i = files.value.findIndex((f) => f.id === item.id);
      previewIndex.value = i < 0 ? null : i;
    }
  };

  /** Back to a folder of the breadcrumb: 0 is the record's folder. */
  const up = (depth: number): void => {
    path.value = path.value.slice(0, Math.max(0, depth));
    void load();
  };

  const createFolder = (name: string) => change(name, () => deps.api.driveFolder({ ...target!, path: sub(), name: name.trim() }));
  const rename = (item: DriveFileAnswer, newName: string) =>
    newName.trim() === '' || newName.trim() === item.name ? Promise.resolve(false) : change(item.name, () => deps.api.driveRename({ ...target!, path: sub(), name: item.name, newName: newName.trim() }));
  const remove = (item: DriveFileAnswer) => change(item.name, () => deps.api.driveDelete({ ...target!, path: sub(), name: item.name }));

  /** Uploads one after another (button or drop); images are downscaled first. */
  const upload = async (list: ReadonlyArray<File | { blob: Blob; name: string }>): Promise<boolean> => {
    let ok = true;
    const max = maxImageSizeOfPanel(panel);
    for (const f of list) {
      const [blob, name] = f instanceof Blob ? [f, f.name] : [f.blob, f.name];
      ok =
        (await change(name, async () => {
          let body: Blob = blob;
          let fileName = name;
          if (max > 0 && IMAGE.test(blob.type)) {
            try {
              const p = await deps.downscale(blob, name, max);
              body = p.blob;
              fileName = p.fileName;
            } catch {
              // An image the browser cannot read goes up as it is.
            }
          }
          await deps.api.driveUpload({ ...target!, path: sub() }, body, fileName);
        })) && ok;
    }
    return ok;
  };

  /** The preview dialog's Save: the turned image replaces the drive file. */
  const saveTurned = async (file: PreviewFile, image: PreparedImage): Promise<void> => {
    if (!target) return;
    await deps.api.driveUpload({ ...target, path: sub() }, image.blob, file.name, true);
    await load();
  };

  const previewFiles = computed((): PreviewFile[] =>
    files.value.map((f) => ({ key: f.id, name: f.name, url: f.downloadUrl ?? f.webUrl ?? '', contentType: f.mimeType ?? undefined, size: f.size, modified: f.lastModifiedDateTime })),
  );

  return { items, files, path, folder, missing, notConfigured, loading, error, busy, isEmpty, previewIndex, previewFiles, load, open, up, createFolder, rename, remove, upload, saveTurned, canChange: target !== null };
};

export type CloudFilesModel = ReturnType<typeof cloudFilesModel>;

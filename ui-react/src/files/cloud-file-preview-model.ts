import { batch, computed, signal, type ReadonlySignal } from '@preact/signals-react';
import { zipListing, type ZipListing } from '../core.js';
import { fileKind, type FileKind } from './file-kind.js';
import type { PreparedImage } from './image-resize.js';

/**
 * The file preview dialog CloudFilePreview (spec 001 section 2: "previous and next with arrow
 * keys, Escape closes, rotate by 90 degrees either way, save"; 'No more files' at either end).
 * It shows a list of files one at a time: images, a zip's entries (name, modified date, size,
 * read from its central directory), a PDF, else a download link. Save hands the turned image to
 * the owner of the files (`onSave`): a record's field takes it as its new file, the CloudFiles
 * panel replaces the drive file, an activity attachment... The model holds no DOM: loading bytes
 * and turning images are passed in.
 */

/**
 * A file to show: `url` is where its bytes are (a signed blob address, a drive download URL, an
 * object URL); `blob` the bytes themselves when the browser holds them (a file not uploaded yet:
 * read directly, since the page's content security policy does not let fetch read blob: URLs).
 */
export type PreviewFile = { key: string; name: string; url: string; contentType?: string; size?: number; modified?: string; blob?: Blob };

/** What the body of the dialog shows for the current file (images and other files need nothing loaded). */
export type PreviewContent =
  | { _tag: 'Image' }
  | { _tag: 'Other' }
  | { _tag: 'Loading' }
  | { _tag: 'Zip'; listing: Extract<ZipListing, { _tag: 'Listed' }> }
  | { _tag: 'Pdf' }
  | { _tag: 'Failed'; message: string }
  | { _tag: 'NotZip' };

export type PreviewNotice = '' | 'noMoreFiles' | 'saved';

export type PreviewDeps = {
  /** the bytes of a file (fetch in the browser) */
  load: (url: string) => Promise<Blob>;
  /** turns an image by quarter turns (the canvas in the browser) */
  rotate: (blob: Blob, fileName: string, quarterTurns: number) => Promise<PreparedImage>;
  /** stores the turned image; without it the dialog has no Save */
  onSave?: (file: PreviewFile, image: PreparedImage) => Promise<void>;
};

export type CloudFilePreviewModel = ReturnType<typeof cloudFilePreviewModel>;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const cloudFilePreviewModel = (initial: readonly PreviewFile[], start: number, deps: PreviewDeps) => {
  const files = signal<readonly PreviewFile[]>(initial);
  const index = signal(Math.max(0, Math.min(start, initial.length - 1)));
  /** quarter turns clockwise of the current image, 0..3 */
  const turns = signal(0);
  const notice = signal<PreviewNotice>('');
  const saving = signal(false);
  const saveError = signal('');
  const content = signal<PreviewContent>({ _tag: 'Loading' });

  const current = computed((): PreviewFile | undefined => files.value[index.value]);
  const kind = computed((): FileKind => (current.value ? fileKind(current.value.name, current.value.contentType) : 'other'));
  const canRotate = computed(() => kind.value === 'image');
  const canSave = computed(() => !!deps.onSave && canRotate.value && turns.value !== 0 && !saving.value);

  const bytesOf = (f: PreviewFile): Promise<Blob> => (f.blob ? Promise.resolve(f.blob) : deps.load(f.url));

  /** Loads what the current file's view needs; a newer load wins over an older answer. */
  let loadToken = 0;
  const loadContent = async (): Promise<void> => {
    const token = ++loadToken;
    const f = current.value;
    const k = kind.value;
    // Images and PDFs are shown from their address by the browser; only a zip's bytes are read here.
    if (!f || k !== 'zip') {
      content.value = k === 'image' ? { _tag: 'Image' } : k === 'pdf' ? { _tag: 'Pdf' } : { _tag: 'Other' };
      return;
    }
    content.value = { _tag: 'Loading' };
    try {
      const blob = await bytesOf(f);
      if (token !== loadToken) return;
      const listing = zipListing(new Uint8Array(await blob.arrayBuffer()), { maxEntries: 1000 });
      if (token !== loadToken) return;
      content.value = listing._tag === 'Listed' ? { _tag: 'Zip', listing } : { _tag: 'NotZip' };
    } catch (e) {
      if (token === loadToken) content.value = { _tag: 'Failed', message: message(e) };
    }
  };

  const go = (to: number): boolean => {
    if (to < 0 || to >= files.value.length) {
      notice.value = 'noMoreFiles';
      return false;
    }
    batch(() => {
      index.value = to;
      turns.value = 0;
      notice.value = '';
      saveError.value = '';
    });
    void loadContent();
    return true;
  };
  /** The next file, or 'No more files' at the end. */
  const next = (): boolean => go(index.value + 1);
  /** The previous file, or 'No more files' at the start. */
  const previous = (): boolean => go(index.value - 1);

  /** Turns the image by 90 degrees: 1 clockwise, -1 counter-clockwise. */
  const rotate = (direction: 1 | -1): void => {
    if (!canRotate.value) return;
    batch(() => {
      turns.value = (turns.value + direction + 4) % 4;
      notice.value = '';
    });
  };

  /** Writes the turned image and hands it to the owner; the view shows it unturned afterwards. */
  const save = async (): Promise<'Saved' | 'Failed' | 'Nothing'> => {
    const f = current.value;
    if (!f || !canSave.value || !deps.onSave) return 'Nothing';
    batch(() => {
      saving.value = true;
      saveError.value = '';
    });
    try {
      const turned = await deps.rotate(await bytesOf(f), f.name, turns.value);
      await deps.onSave(f, turned);
      batch(() => {
        turns.value = 0;
        notice.value = 'saved';
      });
      return 'Saved';
    } catch (e) {
      saveError.value = message(e);
      return 'Failed';
    } finally {
      saving.value = false;
    }
  };

  /**
   * The owner's files changed (a saved image has a new address): keep showing the same file by
   * its key, reloading its view when its address changed.
   */
  const setFiles = (next: readonly PreviewFile[]): void => {
    const was = current.value;
    if (next === files.value) return;
    const at = was ? next.findIndex((f) => f.key === was.key) : -1;
    batch(() => {
      files.value = next;
      index.value = at >= 0 ? at : Math.max(0, Math.min(index.value, next.length - 1));
    });
    const now = current.value;
    if (!now || !was || now.url !== was.url || now.key !== was.key) void loadContent();
  };

  void loadContent();

  return {
    files: files as ReadonlySignal<readonly PreviewFile[]>,
    index: index as ReadonlySignal<number>,
    turns: turns as ReadonlySignal<number>,
    notice: notice as ReadonlySignal<PreviewNotice>,
    saving: saving as ReadonlySignal<boolean>,
    saveError: saveError as ReadonlySignal<string>,
    content: content as ReadonlySignal<PreviewContent>,
    current,
    kind,
    canRotate,
    canSave,
    canSaveAtAll: !!deps.onSave,
    next,
    previous,
    rotate,
    save,
    setFiles,
    reload: loadContent,
  };
};

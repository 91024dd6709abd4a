import { signal, type ReadonlySignal } from '@preact/signals-react';

/** Spec 002 section 9: 'Toast 3 s'. */
export const TOAST_MS = 3000;

export type Toast = { id: number; text: string; kind: 'success' | 'info' | 'error' };
const shown = signal<Toast[]>([]);
let nextToast = 1;

/** The toasts on screen, newest last (the host in dialogs.tsx draws them). */
export const toasts: ReadonlySignal<readonly Toast[]> = shown;

/** A short message in the corner that leaves by itself after TOAST_MS (MsgRecordSaved, MsgRecordUpdated...). */
export const toast = (text: string, kind: Toast['kind'] = 'success'): void => {
  const id = nextToast++;
  shown.value = [...shown.value, { id, text, kind }];
  setTimeout(() => {
    shown.value = shown.value.filter((x) => x.id !== id);
  }, TOAST_MS);
};

import { signal, effect } from '@preact/signals-react';
import { KEYS, local } from './storage.js';

/** Spec 000 section 4: 0 system, 1 dark, 2 light; the default is 2, kept locally. */
export type Theme = 0 | 1 | 2;
const stored = Number(local.get(KEYS.colorTheme));
export const theme = signal<Theme>(stored === 0 || stored === 1 || stored === 2 ? stored : 2);

const media = window.matchMedia('(prefers-color-scheme: dark)');
const apply = (): void => {
  const dark = theme.value === 1 || (theme.value === 0 && media.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
};
media.addEventListener('change', apply);
effect(apply);

export const setTheme = (value: Theme): void => {
  theme.value = value;
  local.set(KEYS.colorTheme, String(value));
};

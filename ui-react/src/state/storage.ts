/** The storage keys of spec 000 section 9: color theme, login organization, login email (local), app id (session). */
export const KEYS = {
  colorTheme: 'tessera.colorTheme',
  loginOrganization: 'tessera.loginOrganization',
  loginEmail: 'tessera.loginEmail',
  language: 'tessera.language',
  appId: 'tessera.appId',
  listPageSize: 'tessera.listPageSize',
} as const;

const safe = <T>(f: () => T, fallback: T): T => {
  try {
    return f();
  } catch {
    return fallback;
  }
};

export const local = {
  get: (k: string): string | null => safe(() => localStorage.getItem(k), null),
  set: (k: string, v: string): void => safe(() => localStorage.setItem(k, v), undefined),
};
export const session = {
  get: (k: string): string | null => safe(() => sessionStorage.getItem(k), null),
  set: (k: string, v: string): void => safe(() => sessionStorage.setItem(k, v), undefined),
};

/**
 * The desktop mode of the build (issue 21; spec 000 section 7: "Desktop-app mode prefixes a fixed
 * host"). `vite build --mode desktop` (npm run build:desktop) makes a client whose every call goes
 * to one fixed host, given at build time in VITE_TESSERA_HOST (e.g. https://crm.example.com);
 * without it the host is the one that served the app. The 'host#organization' form of the sign-in
 * page then cannot send calls elsewhere. docs/ui.md "The desktop app".
 */

export type BuildEnv = { MODE: string; VITE_TESSERA_HOST?: string };

/** The fixed host of a desktop build ('' = the serving origin); undefined in the web build (the host is chosen at sign-in). */
export const fixedHostOf = (env: BuildEnv): string | undefined => {
  if (env.MODE !== 'desktop') return undefined;
  return (env.VITE_TESSERA_HOST ?? '').trim().replace(/\/+$/, '');
};

/** This build's fixed host (see fixedHostOf); read as written so vite replaces the values at build time. */
export const FIXED_HOST: string | undefined = fixedHostOf({ MODE: import.meta.env.MODE, VITE_TESSERA_HOST: import.meta.env.VITE_TESSERA_HOST as string | undefined });
/** True in the desktop build: the Go Offline and Sync parts of issue 21 show only there. */
export const DESKTOP_BUILD = FIXED_HOST !== undefined;

/** What pinHost needs of the API client (ui-react/src/api/client.ts). */
export type HostedClient = { setHost(host: string): void };

/**
 * In the desktop build, sets the client's host prefix to the fixed host and keeps it there: a later
 * setHost (the sign-in page's 'host#organization') changes nothing. In the web build, does nothing.
 */
export const pinHost = (client: HostedClient, host: string | undefined = FIXED_HOST): void => {
  if (host === undefined) return;
  const set = client.setHost.bind(client);
  set(host);
  client.setHost = () => set(host);
};

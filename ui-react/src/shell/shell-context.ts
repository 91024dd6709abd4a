import { useOutletContext } from 'react-router';
import type { MenuSection } from './menu.js';

/** What the shell hands to the screens inside it: the resolved app, the app as written in the path, the menu. */
export type ShellContext = { app: string; appParam: string; sections: MenuSection[] };
export const useShell = (): ShellContext => useOutletContext<ShellContext>();

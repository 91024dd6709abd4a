import { Navigate, useParams } from 'react-router';
import { NotFoundPage } from './error-pages.js';
import { landingItem } from './menu.js';
import { useShell } from './shell-context.js';

/** /{appid}/: the first menu item with a working screen (issue 23 item 3: never a placeholder when a list exists). */
export const AppHome = () => {
  const { sections, appParam } = useShell();
  const first = landingItem(sections);
  return first ? <Navigate to={`/${appParam}/${first.to}`} replace /> : <NotFoundPage />;
};

/** /{appid}/n/{uniqueName}: the menu item of that unique name (entity items only). */
export const MenuByName = () => {
  const { sections, appParam } = useShell();
  const { uniqueName } = useParams();
  const item = sections.flatMap((s) => s.items).find((i) => i.uniqueName === uniqueName && i.kind === 'entity');
  return item ? <Navigate to={`/${appParam}/${item.to}`} replace /> : <NotFoundPage />;
};

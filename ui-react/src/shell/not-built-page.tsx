import { Link, useLocation } from 'react-router';
import { useT } from '../i18n.js';
import { firstItem } from './menu.js';
import { useShell } from './shell-context.js';

/**
 * The app routes of spec 000 section 2 whose screens this version does not have yet
 * (customizemetadata, customizelocalization, dashboard, whatsnext, import, export, custom pages).
 * A menu item may point at them, so they say so, under the item's own label, instead of a bare
 * 'Page not found'.
 */
export const NotBuiltPage = () => {
  const t = useT();
  const loc = useLocation();
  const { sections, appParam } = useShell();
  const here = decodeURIComponent(loc.pathname).replace(/^\/[^/]+\//, '');
  const item = sections.flatMap((s) => s.items).find((i) => !i.external && i.to.split('?')[0] === here);
  const label = item ? (item.labelKey ? t(item.labelKey) : item.label) : undefined;
  const home = firstItem(sections.map((s) => ({ ...s, items: s.items.filter((i) => i !== item) })));
  return (
    <section className="error-page" aria-labelledby="nb-title">
      <h1 id="nb-title">{label ?? t('MsgPageNotAvailable')}</h1>
      {label && <h2>{t('MsgPageNotAvailable')}</h2>}
      <p>{t('MsgPageNotAvailableText')}</p>
      <p className="muted mono">{loc.pathname}</p>
      <Link className="btn btn-primary" to={home ? `/${appParam}/${home.to}` : '/!/'}>
        {t('CmdBack')}
      </Link>
    </section>
  );
};

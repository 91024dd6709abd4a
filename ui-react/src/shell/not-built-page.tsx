import { Link, useLocation } from 'react-router';
import { useT } from '../i18n.js';
import { comingPageOf, comingPageTexts } from './coming-pages.js';
import { landingItem } from './menu.js';
import { useShell } from './shell-context.js';

/**
 * The app routes of spec 000 section 2 whose screens this version does not have yet (the list is
 * in coming-pages.ts). A menu item may point at them, so they name, under the item's own label,
 * what the screen will hold, and nothing more (issue 23 item 4); Back goes to a working screen.
 */
export const NotBuiltPage = () => {
  const t = useT();
  const loc = useLocation();
  const { sections, appParam } = useShell();
  const here = decodeURIComponent(loc.pathname).replace(/^\/[^/]+\//, '');
  const page = comingPageOf(here);
  const texts = page ? comingPageTexts(page) : undefined;
  const item = sections.flatMap((s) => s.items).find((i) => !i.external && i.to.split('?')[0] === here);
  const label = item ? (item.labelKey ? t(item.labelKey) : item.label) : texts ? t(texts.title) : t('MsgPageNotAvailable');
  const home = landingItem(sections.map((s) => ({ ...s, items: s.items.filter((i) => i !== item) })));
  return (
    <section className="error-page coming-page" aria-labelledby="nb-title">
      <div className="coming-head">
        <h1 id="nb-title">{label}</h1>
        <span className="coming-mark">{t('LblComingSoon')}</span>
      </div>
      {texts && <p>{t(texts.text)}</p>}
      <Link className="btn btn-primary" to={home ? `/${appParam}/${home.to}` : '/!/'}>
        {t('CmdBack')}
      </Link>
    </section>
  );
};

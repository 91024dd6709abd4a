import { NavLink } from 'react-router';
import { useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import { comingPageOf } from './coming-pages.js';
import type { MenuEntry } from './menu.js';

/** A menu label: from the catalogue when it has a key, else as the metadata writes it. */
export const ItemLabel = ({ item }: { item: { label: string; labelKey?: Parameters<ReturnType<typeof useT>>[0] } }) => {
  const t = useT();
  return <>{item.labelKey ? t(item.labelKey) : item.label}</>;
};

/**
 * The mark of a menu item whose screen is not built yet (issue 23 item 4): a small hourglass (the
 * side menu has no room for a word beside long labels), read out as "Coming soon" with the name.
 */
const ComingMark = () => {
  const t = useT();
  return (
    <span className="coming-icon" title={t('LblComingSoon')}>
      <Icon name="hourglass" size={14} />
      <span className="sr-only">{t('LblComingSoon')}</span>
    </span>
  );
};

/** One menu item: an external link in a new tab, else a route of the app (marked when its screen is not built yet). */
export const MenuLink = ({ item, appParam, onClick }: { item: MenuEntry; appParam: string; onClick?: () => void }) =>
  item.external ? (
    <a className="nav-item" href={item.to} target="_blank" rel="noreferrer">
      <Icon name="external" />
      <span>
        <ItemLabel item={item} />
      </span>
    </a>
  ) : (
    <NavLink className={({ isActive }) => `nav-item ${isActive ? 'active' : ''}`} to={`/${appParam}/${item.to}`} onClick={onClick}>
      <Icon name={item.icon} />
      <span>
        <ItemLabel item={item} />
      </span>
      {comingPageOf(item.to) && <ComingMark />}
    </NavLink>
  );

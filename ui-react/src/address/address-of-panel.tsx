import { lazy, Suspense, useMemo } from 'react';
import type { Panel } from '../core.js';
import type { PanelContext } from '../form/panel-context.js';
import { addressGroupOf } from './address-group.js';

const AddressWithMap = lazy(() => import('./address-with-map.js'));

/**
 * Under a Fields panel that holds an address (latitude and longitude with a city; address-group.ts):
 * the address-with-map field, loaded on demand with Leaflet. Other panels: nothing.
 */
export const AddressOfPanel = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }) => {
  const names = (panel.fields ?? []).map((f) => f.name);
  const group = useMemo(() => addressGroupOf(ctx.entity, names), [ctx.entity, names.join()]);
  if (!group) return null;
  return (
    <Suspense fallback={<div className="map-canvas map-small" aria-hidden="true" />}>
      <AddressWithMap group={group} ctx={ctx} />
    </Suspense>
  );
};

import { useEffect, useRef, useState } from 'react';
import { MAP_DEFAULT_CENTRE, MAP_DEFAULT_ZOOM, MAP_ZOOM_FORM } from '../core.js';
import { useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import type { PanelContext } from '../form/panel-context.js';
import { createMap, L, pinIcon } from '../map/leaflet-map.js';
import { addressChanges, addressValuesOf, type AddressGroup } from './address-group.js';
import { AddressDialog } from './address-dialog.js';

/**
 * The form's address map (spec 001 "Address and map editors"): under a form's address fields, a
 * small map with the record's point (zoom 12, the spec's zoom "in the form"; `zoom` 9 is the
 * address-with-map field's), and the Edit address button that opens the address dialog; its OK sets
 * the changed fields in the form (saved with the record, like any edit).
 */
const AddressWithMap = ({ group, ctx, zoom = MAP_ZOOM_FORM }: { group: AddressGroup; ctx: PanelContext; zoom?: number }) => {
  const t = useT();
  const [open, setOpen] = useState(false);
  const values = addressValuesOf(group, ctx.record);
  const el = useRef<HTMLDivElement | null>(null);
  const parts = useRef<{ map: L.Map; marker: L.Marker | null } | null>(null);

  useEffect(() => {
    if (!el.current) return;
    const map = createMap(el.current, MAP_DEFAULT_CENTRE, MAP_DEFAULT_ZOOM);
    map.scrollWheelZoom.disable(); // the form scrolls past it
    parts.current = { map, marker: null };
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(el.current);
    return () => {
      resize.disconnect();
      map.remove();
      parts.current = null;
    };
  }, []);

  useEffect(() => {
    const p = parts.current;
    if (!p) return;
    p.marker?.remove();
    p.marker = null;
    if (values.latitude === null || values.longitude === null) {
      p.map.setView([MAP_DEFAULT_CENTRE.lat, MAP_DEFAULT_CENTRE.lon], MAP_DEFAULT_ZOOM);
      return;
    }
    p.marker = L.marker([values.latitude, values.longitude], { icon: pinIcon(), keyboard: false, interactive: false }).addTo(p.map);
    p.map.setView([values.latitude, values.longitude], zoom);
  }, [values.latitude, values.longitude, zoom]);

  return (
    <div className="address-with-map">
      <div ref={el} className="map-canvas map-small" role="img" aria-label={t('LblAddress')} />
      {!ctx.readOnly && (
        <button type="button" className="btn" onClick={() => setOpen(true)}>
          <Icon name="home" /> {t('CmdEditAddress')}
        </button>
      )}
      {open && (
        <AddressDialog
          initial={values}
          onClose={() => setOpen(false)}
          onDone={(after) => {
            for (const [field, v] of addressChanges(group, values, after)) ctx.setValue(field, v);
            setOpen(false);
          }}
        />
      )}
    </div>
  );
};
export default AddressWithMap;

import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { MAP_DEFAULT_CENTRE, MAP_DEFAULT_ZOOM, MAP_ZOOM_EDITOR, type EntityRecord, type MapMarker } from '../core.js';
import { useApi } from '../api/context.js';
import { ServerError } from '../api/client.js';
import { useT } from '../i18n.js';
import { objectChangedEvent } from '../state/realtime.js';
import { Icon } from '../ui/icons.js';
import type { ViewBodyProps } from '../list/view-bodies.js';
import { createMap, L, pinIcon } from './leaflet-map.js';
import { mapModel, spreadOffsets } from './map-model.js';

/**
 * The map body of the list screen (spec 001 section 2, view mode 1; issue 14): the list's records
 * with coordinates as pins on a Leaflet map. The map starts at the default centre (48.392898,
 * 17.60524, zoom 11) and fits the pins once they come (docs/ui.md "Map"). A pin opens its record:
 * a click, or Tab to it and Enter (Leaflet's keyboard markers are buttons named by the record).
 */
const messageOf = (e: unknown): string => (e instanceof ServerError ? e.text || e.message : e instanceof Error ? e.message : String(e ?? ''));

const MapView = ({ model: list, linkOf, onShowAll }: ViewBodyProps) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const navigate = useNavigate();
  const map = useMemo(() => mapModel({ api, list }), [api, list]);
  useEffect(() => map.start(), [map]);
  const name = list.entity.value.logicalName;
  useEffect(() => {
    const ev = objectChangedEvent(name);
    window.addEventListener(ev, map.serverChanged);
    return () => window.removeEventListener(ev, map.serverChanged);
  }, [name, map]);

  const fields = map.fields.value;
  if (fields._tag === 'MissingField') {
    return (
      <p className="empty map-problem" role="alert">
        {t('MsgMapNoField', { field: fields.field })}
      </p>
    );
  }
  const markers = map.markers.value;
  const count = map.count.value;
  const loadError = map.loadError.value;
  const filtered = list.search.value !== '';
  return (
    <div className="map-view">
      {loadError !== null && (
        <div className="kb-alert" role="alert">
          <Icon name="alert" />
          <span>{t('MsgListLoadFailed', { message: messageOf(loadError) })}</span>
          <button type="button" className="btn btn-plain" onClick={() => void map.load()}>
            <Icon name="refresh" /> {t('CmdRefresh')}
          </button>
        </div>
      )}
      {markers !== null && count !== null && count > markers.length && <p className="map-note muted small">{t('MsgMapShownOf', { shown: markers.length, count })}</p>}
      <div className="map-frame">
        <MarkerMap markers={markers ?? []} label={t('LblMapMarkers')} onOpen={(r) => navigate(linkOf(r))} />
        {markers === null && map.loading.value && (
          <div className="map-overlay" role="status">
            <span className="spinner small" aria-hidden="true" /> {t('MsgLoading')}
          </div>
        )}
        {markers !== null && markers.length === 0 && loadError === null && (
          <div className="map-overlay" role="status">
            <span>{t('MsgMapEmpty')}</span>
            {filtered && (
              <button type="button" className="btn btn-plain" onClick={onShowAll}>
                {t('CmdShowAll')}
              </button>
            )}
          </div>
        )}
      </div>
    </div>
  );
};
export default MapView;

/** The Leaflet map of the pins: created once, its pins replaced when the markers change. */
const MarkerMap = ({ markers, label, onOpen }: { markers: readonly MapMarker[]; label: string; onOpen: (r: EntityRecord) => void }) => {
  const el = useRef<HTMLDivElement | null>(null);
  const leaflet = useRef<{ map: L.Map; pins: L.LayerGroup } | null>(null);
  const open = useRef(onOpen);
  open.current = onOpen;

  const fit = useRef<() => void>(() => undefined);
  fit.current = () => {
    const l = leaflet.current;
    if (!l) return;
    l.map.invalidateSize();
    // Fit the pins (decided in docs/ui.md "Map"); none: the default centre and zoom.
    if (markers.length > 0) l.map.fitBounds(L.latLngBounds(markers.map((m) => [m.lat, m.lon] as [number, number])), { padding: [40, 40], maxZoom: MAP_ZOOM_EDITOR });
    else l.map.setView([MAP_DEFAULT_CENTRE.lat, MAP_DEFAULT_CENTRE.lon], MAP_DEFAULT_ZOOM);
  };

  useEffect(() => {
    if (!el.current) return;
    const map = createMap(el.current, MAP_DEFAULT_CENTRE, MAP_DEFAULT_ZOOM);
    const pins = L.layerGroup().addTo(map);
    leaflet.current = { map, pins };
    // The frame gets its final size after the first paint (the lazy body, a phone's rotation): fit again then.
    let size = '';
    const resize = new ResizeObserver(([entry]) => {
      const now = `${Math.round(entry?.contentRect.width ?? 0)}x${Math.round(entry?.contentRect.height ?? 0)}`;
      if (now !== size) {
        size = now;
        fit.current();
      }
    });
    resize.observe(el.current);
    return () => {
      resize.disconnect();
      map.remove();
      leaflet.current = null;
    };
  }, []);

  useEffect(() => {
    const l = leaflet.current;
    if (!l) return;
    l.pins.clearLayers();
    const offsets = spreadOffsets(markers);
    markers.forEach((m, i) => {
      const title = String(m.record.name ?? m.id);
      // The pin is a button of its own (Leaflet's keyboard option relies on the deprecated keypress event).
      const pin = L.marker([m.lat, m.lon], { icon: pinIcon('', offsets[i]), title, alt: title, keyboard: false, riseOnHover: true });
      pin.on('click', () => open.current(m.record));
      pin.addTo(l.pins);
      const icon = pin.getElement();
      if (icon) {
        icon.tabIndex = 0;
        icon.setAttribute('role', 'button');
        icon.setAttribute('aria-label', title);
        icon.setAttribute('data-record-id', m.id);
        icon.addEventListener('keydown', (e) => {
          if (e.key !== 'Enter' && e.key !== ' ') return;
          e.preventDefault();
          e.stopPropagation();
          open.current(m.record);
        });
      }
    });
    fit.current();
  }, [markers]);

  return <div ref={el} className="map-canvas" role="region" aria-label={label} />;
};

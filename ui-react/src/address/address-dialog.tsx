import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useRef } from 'react';
import { MAP_DEFAULT_CENTRE, MAP_DEFAULT_ZOOM, MAP_ZOOM_EDITOR } from '../core.js';
import { useApi } from '../api/context.js';
import { useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { createMap, L, pinIcon } from '../map/leaflet-map.js';
import { addressModel, type AddressModel, type AddressValues, type LookupButton } from './address-model.js';

/**
 * The address editor dialog (id `address`; spec 001 "Address and map editors"): the address parts
 * and coordinates, a map at zoom 16 with a draggable marker, Lookup location, Lookup address and
 * My Location. OK hands the values back; Cancel (or Escape) keeps the record as it was.
 */
export const AddressDialog = ({ initial, onDone, onClose }: { initial: AddressValues; onDone: (v: AddressValues) => void; onClose: () => void }) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const model = useMemo(() => addressModel({ api, initial }), [api]);
  useEffect(() => () => model.dispose(), [model]);
  const v = model.values.value;
  const text = (key: 'street' | 'city' | 'zip' | 'country', label: string, wide = false) => (
    <label className={wide ? 'address-wide' : undefined}>
      {label}
      <input value={v[key]} onChange={(e) => model.set(key, e.target.value)} autoComplete="off" />
    </label>
  );
  const coordinate = (key: 'latitude' | 'longitude', label: string, limit: number) => (
    <label>
      {label}
      <input
       
        type="number"
        step="any"
        min={-limit}
        max={limit}
        value={v[key] ?? ''}
        onChange={(e) => {
          const n = e.target.value === '' ? null : Number(e.target.value);
          model.set(key, n !== null && Number.isFinite(n) && Math.abs(n) <= limit ? n : null);
        }}
      />
    </label>
  );
  return (
    <Modal id="address" title={t('LblAddress')} onClose={onClose} wide>
      <div className="address-dialog">
        <div className="address-fields">
          {text('street', t('LblStreet'), true)}
          {text('city', t('LblCity'))}
          {text('zip', t('LblZip'))}
          {text('country', t('LblCountry'), true)}
          {coordinate('latitude', t('LblLatitude'), 90)}
          {coordinate('longitude', t('LblLongitude'), 180)}
        </div>
        <div className="address-actions">
          <LookupButtonView model={model} button="location" icon="search" label={t('CmdLookupLocation')} onClick={() => void model.lookupLocation(true)} />
          <LookupButtonView model={model} button="address" icon="home" label={t('CmdLookupAddress')} onClick={() => void model.lookupAddress()} />
          <LookupButtonView model={model} button="mine" icon="person" label={t('CmdMyLocation')} onClick={() => void model.myLocation()} />
        </div>
        <p className="address-message" role="status" aria-live="polite">
          {model.message.value ? t(model.message.value) : ''}
        </p>
        <EditorMap model={model} label={t('LblMarkerDrag')} />
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('CmdCancel')}
          </button>
          <button type="button" className="btn btn-primary" onClick={() => onDone(model.values.value)}>
            {t('CmdOk')}
          </button>
        </div>
      </div>
    </Modal>
  );
};

const LookupButtonView = ({ model, button, icon, label, onClick }: { model: AddressModel; button: LookupButton; icon: 'search' | 'home' | 'person'; label: string; onClick: () => void }) => {
  useSignals();
  const f = model.flash.value;
  const flash = f?.button === button ? (f.ok ? 'flash-ok' : 'flash-failed') : '';
  const busy = model.busy.value === button;
  return (
    <button type="button" className={`btn ${flash}`} onClick={onClick} aria-busy={busy} data-flash={flash || undefined}>
      {busy ? <span className="spinner small" aria-hidden="true" /> : <Icon name={icon} />} {label}
    </button>
  );
};

/** The editor's map: zoom 16 on the coordinates (else the default centre at 11), the marker dragged sets them. */
const EditorMap = ({ model, label }: { model: AddressModel; label: string }) => {
  useSignals();
  const el = useRef<HTMLDivElement | null>(null);
  const parts = useRef<{ map: L.Map; marker: L.Marker } | null>(null);
  const { latitude, longitude } = model.values.value;

  useEffect(() => {
    if (!el.current) return;
    const { latitude: lat, longitude: lon } = model.values.peek();
    const at = lat !== null && lon !== null ? { lat, lon } : MAP_DEFAULT_CENTRE;
    const map = createMap(el.current, at, lat !== null && lon !== null ? MAP_ZOOM_EDITOR : MAP_DEFAULT_ZOOM);
    const marker = L.marker([at.lat, at.lon], { icon: pinIcon('map-pin-edit'), draggable: true, keyboard: false, title: label, alt: label }).addTo(map);
    marker.on('dragend', () => {
      const p = marker.getLatLng();
      model.moveTo(p.lat, p.lng);
    });
    // A click on the map puts the marker there (also the way without dragging).
    map.on('click', (e: L.LeafletMouseEvent) => model.moveTo(e.latlng.lat, e.latlng.lng));
    parts.current = { map, marker };
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(el.current);
    return () => {
      resize.disconnect();
      map.remove();
      parts.current = null;
    };
  }, [model, label]);

  useEffect(() => {
    const p = parts.current;
    if (!p || latitude === null || longitude === null) return;
    const here = p.marker.getLatLng();
    if (here.lat === latitude && here.lng === longitude) return;
    p.marker.setLatLng([latitude, longitude]);
    p.map.setView([latitude, longitude], MAP_ZOOM_EDITOR);
  }, [latitude, longitude]);

  return <div ref={el} className="map-canvas map-small" role="region" aria-label={label} />;
};

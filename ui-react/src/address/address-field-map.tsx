import { useEffect, useRef } from 'react';
import { MAP_DEFAULT_CENTRE, MAP_ZOOM_ADDRESS_FIELD } from '../core.js';
import { createMap, L, pinIcon } from '../map/leaflet-map.js';

/**
 * The small map of the address-with-map field (loaded on demand with Leaflet): the pin at the
 * point, at zoom 9 (spec 001: "9 in the address-with-map field"); without a point the default
 * centre at the same zoom. It shows; the input and the coordinate fields are what a user edits.
 */
const AddressFieldMap = ({ point, label }: { point: { lat: number; lon: number } | null; label: string }) => {
  const el = useRef<HTMLDivElement | null>(null);
  const parts = useRef<{ map: L.Map; marker: L.Marker | null } | null>(null);

  useEffect(() => {
    if (!el.current) return;
    const map = createMap(el.current, MAP_DEFAULT_CENTRE, MAP_ZOOM_ADDRESS_FIELD);
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

  const lat = point?.lat ?? null;
  const lon = point?.lon ?? null;
  useEffect(() => {
    const p = parts.current;
    if (!p) return;
    p.marker?.remove();
    p.marker = null;
    if (lat === null || lon === null) {
      p.map.setView([MAP_DEFAULT_CENTRE.lat, MAP_DEFAULT_CENTRE.lon], MAP_ZOOM_ADDRESS_FIELD);
      return;
    }
    p.marker = L.marker([lat, lon], { icon: pinIcon(), keyboard: false, interactive: false }).addTo(p.map);
    p.map.setView([lat, lon], MAP_ZOOM_ADDRESS_FIELD);
  }, [lat, lon]);

  return <div ref={el} className="map-canvas map-address-field" role="img" aria-label={label} data-lat={lat ?? undefined} data-lon={lon ?? undefined} />;
};
export default AddressFieldMap;

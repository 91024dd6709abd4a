import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { mapTiles } from './map-tiles.js';

/**
 * The Leaflet pieces every map of the client shares (list map, address editor, address-with-map
 * field). This module is only reached through React.lazy, so Leaflet and its CSS load with the
 * first map, not with the first screen. Markers are CSS pins (a divIcon): no image files to
 * resolve, and they show without network like everything but the tiles.
 */
export { L };

export const createMap = (el: HTMLElement, centre: { lat: number; lon: number }, zoom: number): L.Map => {
  const map = L.map(el, { center: [centre.lat, centre.lon], zoom, zoomControl: true, attributionControl: true });
  map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  const tiles = mapTiles();
  // No network: the tiles fail quietly and the markers stay on the plain background (styles.css).
  if (tiles) L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(map);
  return map;
};

/** A pin: a CSS shape whose tip is the point. */
export const pinIcon = (extraClass = '', offset: [number, number] = [0, 0]): L.DivIcon =>
  L.divIcon({ className: `map-pin ${extraClass}`.trim(), html: '<span class="map-pin-head"></span>', iconSize: [26, 34], iconAnchor: [13 - offset[0], 34 - offset[1]] });

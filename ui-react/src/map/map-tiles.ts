/**
 * Where map tiles come from (issue 14: the tile URL is configuration). Set at build time:
 * VITE_TESSERA_MAP_TILES (a Leaflet URL template, `{z}/{x}/{y}`); unset: OpenStreetMap's tiles; an
 * empty value: no tiles at all (markers on a plain background, for hosts without internet access).
 * VITE_TESSERA_MAP_ATTRIBUTION names the tiles' source (the tile licence requires it).
 */
const env = import.meta.env as Record<string, string | undefined>;

export const OSM_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

export const mapTiles = (): { url: string; attribution: string } | null => {
  const url = env.VITE_TESSERA_MAP_TILES ?? OSM_TILES;
  if (url.trim() === '') return null;
  return { url, attribution: env.VITE_TESSERA_MAP_ATTRIBUTION ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors' };
};

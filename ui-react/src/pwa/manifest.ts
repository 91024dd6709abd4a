/**
 * The web app manifest (issue 21): what makes the web client installable as a desktop app
 * (Chrome/Edge "Install Tessera"). Written by the build as /manifest.webmanifest with the icons
 * icon-png.ts draws; colours are those of styles.css (light --bg and --accent).
 */

export type ManifestIcon = { src: string; sizes: string; type: 'image/png'; purpose: 'any' | 'maskable' };

export const ICON_SIZES = [192, 512] as const;

/** The icon files of the build, in the manifest's form; `any` and `maskable` at each size. */
export const manifestIcons = (): ManifestIcon[] =>
  ICON_SIZES.flatMap((n) => [
    { src: `/icons/icon-${n}.png`, sizes: `${n}x${n}`, type: 'image/png' as const, purpose: 'any' as const },
    { src: `/icons/maskable-${n}.png`, sizes: `${n}x${n}`, type: 'image/png' as const, purpose: 'maskable' as const },
  ]);

/** styles.css :root --bg (the splash screen behind the icon) and --accent (the title bar). */
export const BACKGROUND_COLOR = '#f6f7f9';
export const THEME_COLOR = '#4f46e5';

export const webManifest = () => ({
  id: '/',
  name: 'Tessera',
  short_name: 'Tessera',
  description: 'Business records: lists, forms and dashboards of your organization.',
  // The app's home: / goes on to /!/ (spec 000 section 2), the signed-in user's default app.
  start_url: '/',
  scope: '/',
  display: 'standalone',
  background_color: BACKGROUND_COLOR,
  theme_color: THEME_COLOR,
  icons: manifestIcons(),
});

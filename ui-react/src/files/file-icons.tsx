/** The few icons of the file editors and the preview (the shared icon set has no turns or documents). */
const paths = {
  rotateLeft: 'M4 4v5h5M4.6 9A8 8 0 1 1 4 13',
  rotateRight: 'M20 4v5h-5M19.4 9A8 8 0 1 0 20 13',
  file: 'M6 3h8l5 5v13H6zM14 3v5h5',
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15 9h.01',
  upload: 'M12 16V4M7 9l5-5 5 5M5 20h14',
  download: 'M12 4v12M7 11l5 5 5-5M5 20h14',
  chevronLeft: 'M15 6l-6 6 6 6',
  chevronRight: 'M9 6l6 6-6 6',
  close: 'M6 6l12 12M18 6L6 18',
} as const;

export type FileIconName = keyof typeof paths;

export const FileIcon = ({ name, size = 18 }: { name: FileIconName; size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d={paths[name]} />
  </svg>
);

/** The feed's own icons (the shared set in ui/icons.tsx has no bell, paper clip or send): same 24 px stroke style. */
const paths: Record<string, string> = {
  attach: 'M20 11.5l-8 8a5 5 0 01-7-7l8.5-8.5a3.3 3.3 0 014.7 4.7l-8.5 8.5a1.7 1.7 0 01-2.4-2.4L15 7',
  send: 'M4 12l16-8-6 16-3-7zM11 13l9-9',
  bell: 'M6 16V11a6 6 0 0112 0v5l2 2H4zM10 20a2 2 0 004 0',
  bellOn: 'M6 16V11a6 6 0 0112 0v5l2 2H4zM10 20a2 2 0 004 0M3 8a9 9 0 012.5-4.5M21 8a9 9 0 00-2.5-4.5',
  close: 'M6 6l12 12M18 6L6 18',
};

export const FeedIcon = ({ name, size = 18 }: { name: keyof typeof paths | string; size?: number }) => (
  <svg className="icon" width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d={paths[name] ?? paths.attach} />
  </svg>
);

import { useEffect, useState } from 'react';

/** Whether a media query matches, followed as it changes. */
export const useMedia = (query: string): boolean => {
  const [m, setM] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const f = () => setM(mq.matches);
    mq.addEventListener('change', f);
    return () => mq.removeEventListener('change', f);
  }, [query]);
  return m;
};

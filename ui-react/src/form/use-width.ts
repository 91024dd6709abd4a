import { useEffect, useRef, useState } from 'react';

/** The width of an element, followed as it changes. */
export const useWidth = <E extends HTMLElement>(): [React.RefObject<E | null>, number] => {
  const ref = useRef<E>(null);
  const [w, setW] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver((entries) => setW(entries[0]?.contentRect.width ?? 0));
    ro.observe(el);
    setW(el.getBoundingClientRect().width);
    return () => ro.disconnect();
  }, []);
  return [ref, w];
};

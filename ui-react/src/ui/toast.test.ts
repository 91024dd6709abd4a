import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast, toasts, TOAST_MS } from './toast.js';

afterEach(() => vi.useRealTimers());

describe('toast (spec 002 section 9)', () => {
  it("'Toast 3 s': a toast is shown for 3 s, then leaves by itself", () => {
    vi.useFakeTimers();
    expect(TOAST_MS).toBe(3000);
    toast('Record saved');
    expect(toasts.value.map((x) => x.text)).toEqual(['Record saved']);
    vi.advanceTimersByTime(2999);
    expect(toasts.value).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toasts.value).toHaveLength(0);
  });
});

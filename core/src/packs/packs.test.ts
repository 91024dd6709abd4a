import { describe, expect, it } from 'vitest';
import { systemPack } from './packs.js';

describe('built-in packs', () => {
  it('the system pack decodes', () => {
    expect(systemPack().entities.length).toBeGreaterThan(10);
  });
});

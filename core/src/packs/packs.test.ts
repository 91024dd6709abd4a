import { describe, expect, it } from 'vitest';
import { demoPack, systemPack } from './packs.js';

describe('built-in packs', () => {
  it('the system pack decodes', () => {
    expect(systemPack().entities.length).toBeGreaterThan(10);
  });
  it('the demo pack decodes', () => {
    expect(demoPack().entities.length).toBeGreaterThan(10);
  });
});

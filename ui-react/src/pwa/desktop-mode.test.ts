import { describe, expect, it } from 'vitest';
import { fixedHostOf, pinHost } from './desktop-mode.js';

describe('the desktop build mode (spec 000 section 7: "Desktop-app mode prefixes a fixed host")', () => {
  it('the desktop mode has a fixed host: the configured one, else the serving origin; the web build none', () => {
    expect(fixedHostOf({ MODE: 'desktop', VITE_TESSERA_HOST: 'https://crm.example.com/' })).toBe('https://crm.example.com');
    expect(fixedHostOf({ MODE: 'desktop' })).toBe('');
    expect(fixedHostOf({ MODE: 'production', VITE_TESSERA_HOST: 'https://crm.example.com' })).toBeUndefined();
  });

  it('a pinned client keeps the fixed host whatever the sign-in page sets', () => {
    const client = { host: 'old', setHost(h: string) { this.host = h; } };
    pinHost(client, 'https://crm.example.com');
    expect(client.host).toBe('https://crm.example.com');
    client.setHost('localhost:3000');
    expect(client.host).toBe('https://crm.example.com');
  });

  it('the web build leaves the host to the sign-in page', () => {
    const client = { host: '', setHost(h: string) { this.host = h; } };
    pinHost(client, undefined);
    client.setHost('localhost:3000');
    expect(client.host).toBe('localhost:3000');
  });
});

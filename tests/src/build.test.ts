import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

// Issue 2: after `npm run build` (the first step of `npm test`), the packages are plain JavaScript.
describe('the build gives plain JavaScript with type declarations', () => {
  it('built core has declarations and imports from plain Node', () => {
    expect(existsSync(`${root}core/dist/index.d.ts`), 'run `npm run build` first').toBe(true);
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', "const c = await import('@tessera/core'); console.log(typeof c.decode)"], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('function');
  });

  it('`npx tessera --help` runs from the repository root', () => {
    const out = execFileSync('npx', ['--no-install', 'tessera', '--help'], { cwd: root, encoding: 'utf8' });
    expect(out).toMatch(/Usage: tessera/);
  });
});

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isLeft } from 'fp-ts/lib/Either.js';
import { systemPack } from '../packs/packs.js';
import { defaultForm } from './default-form.js';
import { loadPack, packsMetadataSet } from './pack.js';

const doc = readFileSync(fileURLToPath(new URL('../../../docs/metadata.md', import.meta.url)), 'utf8');
const example = (): unknown => {
  const blocks = [...doc.matchAll(/```json\n([\s\S]*?)\n```/g)];
  return JSON.parse(blocks[blocks.length - 1][1]);
};

describe('docs/metadata.md: the complete entity definition example', () => {
  it('loads as a pack on top of the system pack and gets its system fields', () => {
    const pack = loadPack(example(), 'docs/metadata.md', [systemPack()]);
    if (isLeft(pack)) throw new Error(pack.left.message);
    const vehicle = pack.right.entities[0];
    expect(vehicle.properties.map((p) => p.logicalName)).toEqual(
      expect.arrayContaining(['id', 'createdon', 'versionnumber']),
    );
    // name is declared again (label and Required): merged, not duplicated
    expect(vehicle.properties.filter((p) => p.logicalName === 'name')).toEqual([
      { logicalName: 'name', displayName: 'Registration', type: 'String', max: 200, flags: ['Required'] },
    ]);
  });

  it('shows every property type an administrator declares (VersionNumber is a system field)', () => {
    const raw = example() as { entities: Array<{ properties: Array<{ type: string; flags?: string[] }> }> };
    const props = raw.entities[0].properties;
    for (const t of [
      'String',
      'Integer',
      'Decimal',
      'Float',
      'Money',
      'DateTime',
      'Guid',
      'Lookup',
      'Boolean',
      'Binary',
    ])
      expect(
        props.some((p) => p.type === t),
        t,
      ).toBe(true);
  });

  it('an export of the loaded entities loads back unchanged', () => {
    const pack = loadPack(example(), 'docs/metadata.md', [systemPack()]);
    if (isLeft(pack)) throw new Error(pack.left.message);
    const exported = { name: 'org', entities: pack.right.entities };
    const again = loadPack(JSON.parse(JSON.stringify(exported)), 'export.json', [systemPack()]);
    expect(isLeft(again) ? again.left.message : again.right.entities).toEqual(pack.right.entities);
    const set = packsMetadataSet([systemPack(), pack.right]);
    if (isLeft(set)) throw new Error(set.left.message);
    expect(isLeft(defaultForm(set.right, 'vehicle'))).toBe(false);
  });
});

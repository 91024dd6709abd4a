import { isLeft } from 'fp-ts/lib/Either.js';
import { loadPack, type Pack } from '../metadata/pack.js';
import systemJson from './system.json' with { type: 'json' };
import demoJson from './demo-crm.json' with { type: 'json' };

/**
 * The built-in metadata packs, JSON files beside this module, decoded by the metadata codecs when
 * first asked for. A broken built-in pack is a bug of this repository: it throws, naming the file
 * and the path of each problem.
 */
export const SYSTEM_PACK_SOURCE = 'core/src/packs/system.json';
export const DEMO_PACK_SOURCE = 'core/src/packs/demo-crm.json';

const loaded = new Map<string, Pack>();
const builtIn = (source: string, raw: unknown, base: readonly Pack[]): Pack => {
  const cached = loaded.get(source);
  if (cached) return cached;
  const pack = loadPack(raw, source, base);
  if (isLeft(pack)) throw new Error(pack.left.message);
  loaded.set(source, pack.right);
  return pack.right;
};

/** The system pack: users, teams, roles, apps, inu_view and the other entities every organization has. */
export const systemPack = (): Pack => builtIn(SYSTEM_PACK_SOURCE, systemJson as unknown, []);

/** The demo CRM pack (accounts to invoices, travel reports, family budget, community evaluation); it requires system. */
export const demoPack = (): Pack => builtIn(DEMO_PACK_SOURCE, demoJson as unknown, [systemPack()]);

/** Both built-in packs, system first. */
export const builtInPacks = (): Pack[] => [systemPack(), demoPack()];

import { signal } from '@preact/signals-react';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { QuickFilter } from '../core.js';
import { FetchFragment as FetchFragmentCodec } from '../core.js';

type FetchFragment = FetchFragmentCodec;
import { TOKEN_CHANGED_EVENT } from '../api/client.js';
import type { ScriptResult } from './sandbox-runner.js';

/**
 * Quick filters whose customFetch or extraFetch is computed by a script (issue 16): the metadata
 * writes `"customFetch": { "script": "account.myteam" }` instead of the fragment. The script runs
 * once per page (per name) with no record, and returns the fragment (`{ filter, links, orders }`),
 * which may still hold `{{value}}` and the other placeholders: the quick-filter rules then apply it
 * as if the metadata held it. Until the answer comes, and when the script fails or answers
 * something else, the fragment is empty (the filter adds nothing).
 */
const SCRIPT_KEY = 'script';

/** The script's name of a fragment written `{ script: name }`, else undefined. */
export const fragmentScript = (f: FetchFragment | undefined): string | undefined => {
  const name = f && (f as Record<string, unknown>)[SCRIPT_KEY];
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
};

/** What a fetch script answered, as a fragment: only the keys a fragment has. */
export const fragmentOfResult = (r: ScriptResult): FetchFragment => {
  if (r._tag !== 'Completed' || !r.result || typeof r.result !== 'object' || Array.isArray(r.result)) return {};
  const v = r.result as Record<string, unknown>;
  const decoded = FetchFragmentCodec.decode({ filter: v.filter, links: v.links, orders: v.orders });
  if (isLeft(decoded)) return {};
  return Object.fromEntries(Object.entries(decoded.right).filter(([, x]) => x !== undefined)) as FetchFragment;
};

/** The fragments resolved so far, by script name; a signal, so the lists' filters follow them. */
const resolved = signal<ReadonlyMap<string, FetchFragment>>(new Map());
const started = new Set<string>();

/**
 * The quick filters with their script fragments replaced (`run` starts a script not asked yet;
 * its answer lands in `resolved` and the filters recompute). Filters without scripts pass as they are.
 */
export const withScriptFetches = (
  defs: readonly QuickFilter[],
  run: (name: string, event: 'customFetch' | 'extraFetch') => Promise<FetchFragment>,
): QuickFilter[] => {
  const known = resolved.value;
  const fragment = (f: FetchFragment | undefined, event: 'customFetch' | 'extraFetch'): FetchFragment | undefined => {
    const name = fragmentScript(f);
    if (name === undefined) return f;
    if (!started.has(name)) {
      started.add(name);
      void run(name, event).then((answer) => (resolved.value = new Map([...resolved.value, [name, answer]])));
    }
    return known.get(name) ?? {};
  };
  return defs.map((d) =>
    fragmentScript(d.customFetch) === undefined && fragmentScript(d.extraFetch) === undefined
      ? d
      : { ...d, customFetch: fragment(d.customFetch, 'customFetch'), extraFetch: fragment(d.extraFetch, 'extraFetch') },
  );
};

/** Forgets the answers (a new session: scripts and permissions may differ). */
export const forgetScriptFetches = (): void => {
  started.clear();
  resolved.value = new Map();
};

// Another user (or none) now: their scripts may answer otherwise.
if (typeof window !== 'undefined') window.addEventListener(TOKEN_CHANGED_EVENT, forgetScriptFetches);

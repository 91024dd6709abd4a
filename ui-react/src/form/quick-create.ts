import { createContext, useContext, type ComponentType } from 'react';
import type { EntityRecord } from '../core.js';

/** What the lookup's create dialog draws: a new record of `entityName` in its quick form. */
export type QuickCreateProps = {
  entityName: string;
  formName: string;
  init?: EntityRecord;
  onClose: (created?: { id: string; name: string }) => void;
};

/**
 * The quick-create form, handed to the lookup through context rather than imported: the record
 * form contains lookups, so an import would close a loop (form -> panels -> editors -> lookup ->
 * form). The app root provides the record form, loaded when first used (main.tsx).
 */
export const QuickCreateContext = createContext<ComponentType<QuickCreateProps> | null>(null);
export const useQuickCreate = (): ComponentType<QuickCreateProps> | null => useContext(QuickCreateContext);

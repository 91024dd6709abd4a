import type { Entity, EntityRecord, FieldValue, Panel } from '../core.js';
import type { SaveParticipant } from './record-form-model.js';
import type { WizardNextCommandRunner } from './stage-field-wizard.js';

/** What every panel needs from the form. */
export type PanelContext = {
  entity: Entity;
  record: EntityRecord;
  isNew: boolean;
  readOnly: boolean;
  appParam: string;
  missing: ReadonlySet<string>;
  /** After Keep mine on a version conflict: the fields both users changed, and the note they carry. */
  review?: { fields: ReadonlySet<string>; note: string };
  setValue: (field: string, v: FieldValue) => void;
  /** the stored record's id; none for a new record */
  recordId?: string;
  /** A custom panel that saves with the record registers here (in an effect; call the answer on unmount). */
  participate: (p: SaveParticipant) => () => void;
  /** Wizard: move to the next step (saves first). */
  onWizardStep?: (panel: Panel, index: number) => Promise<boolean>;
  /** Wizard: runs the next-step command (wizardNextCommand) after the step's save; the scripts runner of issue 16 sets it. */
  runWizardNextCommand?: WizardNextCommandRunner;
};

/**
 * The core rules the UI reuses (ARCHITECTURE.md: the browser runs the same merge, required
 * check, permissions, quick filters and formatting as the server), through its public API.
 */
export * from '@tessera/core/internal';
/** The form codec, named apart from the Form type where both are used. */
export { Form as FormCodec } from '@tessera/core/internal';

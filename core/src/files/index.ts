/** Files of File and Image fields (issue 18): the download signature, content sniffing, blob names. */
export * from './sas.js';
/** The zip preview's listing (name, modified, size) from the central directory (F2). */
export * from './zip-listing.js';

/** Files of File and Image fields (issue 18): the download signature, content sniffing, blob names, the blob registry. */
export * from './sas.js';
export * from './sniff.js';
export * from './blob-names.js';
export * from './blob-registry.js';

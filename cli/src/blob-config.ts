import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '@tessera/core/internal';
import { DEFAULT_BLOB_MAX_BYTES, type BlobRouteDeps } from '@tessera/adapters-http';
import { DiskBlobStore, FILES_FOLDER } from '@tessera/adapters-sql';
import { AzureBlobStore, azureBlobConfig } from '@tessera/adapters-graph';

/** A whole number from 1 written in the environment, else undefined. */
const positive = (v: string | undefined): number | undefined => (v !== undefined && /^[1-9]\d{0,12}$/.test(v.trim()) ? Number(v.trim()) : undefined);

/**
 * The download signatures' secret: TESSERA_BLOB_SECRET, else one made once and kept in the data
 * folder (DATA/files/.sas-secret), so a restart does not break the links of open browsers. Several
 * servers behind one address must share TESSERA_BLOB_SECRET.
 */
const sasSecret = (env: Record<string, string | undefined>, dataDir: string): string => {
  const given = env.TESSERA_BLOB_SECRET?.trim();
  if (given) return given;
  const dir = join(dataDir, FILES_FOLDER);
  const file = join(dir, '.sas-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
};

/**
 * Files of File and Image fields (issue 18; docs/operations.md "Files and blob storage"): Azure
 * block blobs when TESSERA_BLOB_AZURE_CONNECTION_STRING is set, else the data folder's files/.
 * Limits: TESSERA_BLOB_MAX_BYTES (default 25 MB), TESSERA_BLOB_SAS_MINUTES (default 60; at least 15,
 * since clients renew the signature in its last 10 minutes).
 */
export const blobRouteDepsFromEnv = (env: Record<string, string | undefined>, dataDir: string, clock: Clock, logger?: Logger): BlobRouteDeps => {
  const azure = azureBlobConfig(env);
  const minutes = positive(env.TESSERA_BLOB_SAS_MINUTES);
  return {
    store: azure ? new AzureBlobStore(azure) : new DiskBlobStore(dataDir),
    secret: sasSecret(env, dataDir),
    clock,
    ids: { newId: randomUUID },
    maxBytes: positive(env.TESSERA_BLOB_MAX_BYTES) ?? DEFAULT_BLOB_MAX_BYTES,
    ...(minutes ? { sasValidityMs: Math.max(15, minutes) * 60_000 } : {}),
    ...(logger ? { logger } : {}),
  };
};

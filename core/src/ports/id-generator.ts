/** Ids come through a port: the server uses random UUIDs, tests a sequence. */
export interface IdGenerator {
  newId(): string;
}

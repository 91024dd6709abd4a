/**
 * Typed tokens for dependency injection. The composition roots in cli/ bind them with
 * inversify; a host that embeds the core wires the same ports by hand.
 * Each port module adds its token here.
 */
export const Tokens = {
  Clock: Symbol.for('Clock'),
  IdGenerator: Symbol.for('IdGenerator'),
  RecordStore: Symbol.for('RecordStore'),
  SchemaStore: Symbol.for('SchemaStore'),
  SessionStore: Symbol.for('SessionStore'),
  OrganizationDirectory: Symbol.for('OrganizationDirectory'),
  PasswordHasher: Symbol.for('PasswordHasher'),
  Mailer: Symbol.for('Mailer'),
  ChangeFeed: Symbol.for('ChangeFeed'),
  BlobStore: Symbol.for('BlobStore'),
  DriveGateway: Symbol.for('DriveGateway'),
  CalendarGateway: Symbol.for('CalendarGateway'),
  Geocoder: Symbol.for('Geocoder'),
  DirectionsService: Symbol.for('DirectionsService'),
  IdentityProvider: Symbol.for('IdentityProvider'),
  GraphTokenSource: Symbol.for('GraphTokenSource'),
  Db: Symbol.for('Db'),
  Config: Symbol.for('Config'),
  Logger: Symbol.for('Logger'),
} as const;

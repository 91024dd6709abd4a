/**
 * @tessera/core: the public API of the embeddable core, for hosts that use Tessera's rules with their
 * own storage behind the ports, wired by hand. Every export has a one-line doc; the surface is
 * recorded in core/api-report.txt (a test fails when it changes without that file).
 * Adapters inside this repository use `@tessera/core/internal`.
 */

// Errors and decoding
/** Expected failures as values: InputError, PermissionDenied, NotFound, VersionConflict; errorText gives the API's "CODE: text". */
export { type DomainError, type InputError, type PermissionDenied, type NotFound, type VersionConflict, type ErrorCode, errorText } from './errors.js';
/** decode(codec, value): an io-ts decode whose failure is an InputError naming the path that failed. */
export { decode, describeErrors } from './decode.js';

// Metadata
/** FIELD_TYPES / fieldType(property): one registry of what each property type means (wire decode, stored form, import cell, query value, column kind). */
export { FIELD_TYPES, fieldType, isQuantity, type FieldTypeRules, type ColumnKind, type StoredForm } from './metadata/field-types.js';
/** The metadata model as io-ts codecs: Entity, Property, PropertyType, flags, rich options, lookups; hasFlag, isLinkEntity. */
export { Entity, Property, PropertyType, PropertyFlag, PROPERTY_FLAGS, RichOption, LookupValue, type FieldValue, type EntityRecord, hasFlag, isLinkEntity, primaryKeyOf } from './metadata/entity.js';
/** Forms, panels, commands, views, charts, quick filters and dashboards as data (spec 001). */
export { Form, Panel, FormField, Command } from './metadata/form.js';
/** List views, charts and quick-filter definitions as codecs. */
export { ListView, Chart, QuickFilter, QuickFilterSet } from './metadata/view.js';
/** systemFieldsOf(entity) / withSystemFields(entity): id, createdon/by, modifiedon/by, ownerid, versionnumber, statecode, statuscode. */
export { systemFieldsOf, withSystemFields, isSystemField } from './metadata/system-fields.js';
/** defaultFormOf(entity): the form generated when an entity defines none. */
export { defaultFormOf } from './metadata/default-form.js';
/** Packs (entities, apps, roles, translations as one JSON document): loadPack decodes one, the built-ins are systemPack and demoPack. */
export { Pack, loadPack } from './metadata/pack.js';
/** The built-in packs: the system pack every organization has, and the demo CRM. */
export { systemPack, demoPack, builtInPacks } from './packs/packs.js';

// Permissions
/** Levels (0 none .. 3 organization) and operations (create, read, update, delete); the Caller a decision is made for. */
export { type Level, type Operation, OPERATIONS, type UserPermissions, type Caller, type ReadScope } from './permissions/types.js';
/** packMask(levels) / unpackMask(mask): four 2-bit levels in 4-bit slots, create lowest; the full mask is 13107. */
export { packMask, unpackMask, FULL_MASK } from './permissions/mask.js';
/** effectivePermissions(roles, knownEntities): the highest level per operation of a user's roles, apps, custom owners, needsTeams. */
export { effectivePermissions, parseRoleDocument, type Role } from './permissions/roles.js';
/** canAccess(user, operation, entity, record): the level-and-ownership decision; readScope(user, entity): the readable rows, dialect-free. */
export { canAccess, readScope } from './permissions/access.js';
/** checkPermissionString(user, '{entity};{level}[;allowNew]', record?): commands, menu items, quick filters; default command permissions. */
export { checkPermissionString, parsePermissionString } from './permissions/permission-string.js';

// Queries
/** The query object of spec 000 section 7 as codecs: FetchRequest, EntityQuery, Filter, Condition, Link, Order; page size limits. */
export { FetchRequest, EntityQuery, Filter, Condition, Link, Order, type FetchResult, OPERATORS, AGGREGATES, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './query/query.js';
/** validateQuery(request, entities): every name and value checked against the metadata, with the limits of QUERY_LIMITS. */
export { validateQuery, QUERY_LIMITS } from './query/validate-query.js';
/** evaluateQuery(plan, source): the reference evaluator every store is held to (contract suites). */
export { evaluateQuery } from './query/evaluate-query.js';
/** {{name}} placeholders: replaceFetchPlaceholders; an empty replacement turns the operator into null. */
export { replaceFetchPlaceholders, replaceFilterPlaceholders } from './query/placeholders.js';
/** Quick filters to query conditions: quickFiltersToFetch (mandatory groups), effectiveSelection (mustSelect). */
export { quickFiltersToFetch, effectiveSelection } from './query/quick-filters.js';
/** Charts: chartRequest (a chart body to its SQL aggregate query), chartData (the answer to categories and series), pickFilter (a bar's condition), cutLabel, chartPalette. */
export { chartRequest, chartData, pickFilter, cutLabel } from './query/chart-query.js';
/** chartPalette(n): the multi-series colours (hue 'blue', seed 32452334, as randomColor gives them). */
export { chartPalette } from './query/chart-palette.js';
/** Kanban: optionLanes, laneCountRequest / countedLanes (lane counts by one aggregate), laneCardsRequest, mayMoveCard, moveCard / restoreCard. */
export { optionLanes, laneCountRequest, countedLanes, laneCardsRequest, mayMoveCard, moveCard, restoreCard } from './query/kanban-lanes.js';
/** Calendar grids: daysShown / stepDate (Monday weeks), movedSpan / resizedSpan (15-minute snapping), overlapColumns. */
export { daysShown, stepDate, movedSpan, resizedSpan, overlapColumns } from './dates/calendar-grid.js';
/** Calendar events: eventOf (a record as an event), eventColor (red: a canceled Meeting; grey: other types; blue), moveUpdate. */
export { eventOf, eventColor, moveUpdate } from './dates/calendar-events.js';
/** Dashboards: dashboardFilterOf (dates, lookups, option sets), dashboardObjectQuery, resolveDashboardObjects, gaugePercent. */
export { dashboardFilterOf, dashboardObjectQuery, resolveDashboardObjects, gaugePercent } from './query/dashboard.js';
/** dateRange(option, reference, timeZone): half-open [start, end) of today ... previous-year (Monday weeks). */
export { dateRange, DATE_RANGE_OPTIONS } from './dates/date-range.js';

// Records
/** changeSet(loaded, edited): only the changed fields are sent (a cleared field as null). */
export { changeSet } from './records/change-set.js';
/** mergeOnConflict(loaded, localChanges, server): local changes on the server record, or 'This record was modified by {modifier}'. */
export { mergeOnConflict } from './records/merge.js';
/** checkRequired(properties, record, form?): Required flag or form override, not hidden; MsgRequiredFieldEmpty with a dash per label. */
export { checkRequired } from './records/required.js';
/** cloneRecord(entity, record): a copy without id, system fields and the fields a clone must not carry. */
export { cloneRecord } from './records/clone.js';
/** Editing in a list: setCell, addRow, deleteRow, toggleLink, revertRow and buildBatch (one executemultiple; a created-then-deleted row is dropped). */
export { emptyEdits, setCell, revertCell, addRow, deleteRow, revertRow, toggleLink, buildBatch } from './records/list-edits.js';
/** InMemoryRecordStore: the reference RecordStore, for tests and small hosts. */
export { InMemoryRecordStore } from './store/in-memory-record-store.js';

// Import and export
/** Import file rules: readCsvPreamble, coerceCell, markRows, previewImport, runImport (writeImport: the write pass alone, cancellable), importTemplate. */
export { readCsvPreamble, coerceCell, markRows, previewImport, runImport, writeImport, importTemplate, type ImportSettings, type ImportOutcome } from './import/index.js';
/** CsvImportReader / csvTextEvents: the pure CSV reader of import files (the browser's worker uses it; no csv-parse needed). */
export { CsvImportReader, csvTextEvents } from './import/csv-reader.js';
/** Export rules: exportPlan, the CSV/JSON line writers, formula neutralization and the PDF table model. */
export { exportPlan, csvHeaderLine, csvRecordLine, jsonExportItem, neutralizeFormula, ExportOptions } from './export/index.js';

// Business maths
/** Exact decimals on scaled integers, rounding half away from zero: roundDecimal, sumDecimal. */
export { roundDecimal, sumDecimal } from './money/decimal.js';
/** formatMoney(amount, currency, settings): modes 0-3, precision default 2, Euro default, decimal separator from settings. */
export { formatMoney } from './money/format-money.js';
/** lineItemTotals (base = quantity x price, total = base x (100 - discount) / 100) and planLineItemSave (quantity 0, parent total). */
export { lineItemTotals, planLineItemSave } from './money/line-items.js';
/** mealAllowance(hours, mealsMask, date?): bands 0 / 8.8 / 13.1 / 19.5, meal cuts of the band-3 amount, rates from a decree table. */
export { mealAllowance } from './travel/meal-allowance.js';
/** routeTotals and the leg operations of a travel report: newReportLegs, addStop, deleteLeg, dietDays. */
export { routeTotals, newReportLegs, addStop, deleteLeg, dietDays } from './travel/route.js';
/** Family budget allowances: childAllowance (60), parentalAllowance (351.80), familyAllowanceLines. */
export { childAllowance, parentalAllowance, familyAllowanceLines } from './budget/family-allowances.js';
/** Community evaluation: checkCommunityEvaluation (eight scores, each 0 to 5) and communityChartValues. */
export { checkCommunityEvaluation, communityChartValues } from './community/evaluation.js';

// Schema
/** schemaOf(entities) / diffSchema(from, to): the schema model of metadata and a dialect-free migration plan; migrateSchema applies it through a SchemaStore. */
export { schemaOf, diffSchema, lossySteps, migrateSchema, planMigration, type Schema, type MigrationPlan, type MigrationStep } from './schema/index.js';
/** viewIndexes / withViewIndexes: the indexes views ask for (a calendar's end and start fields) added to a schema. */
export { viewIndexes, withViewIndexes } from './schema/view-indexes.js';

// Ports and services
/** The ports an embedding host implements: RecordStore, SchemaStore, SessionStore, OrganizationDirectory, Mailer, Clock, IdGenerator, ... */
export type { RecordStore, WriteItem, ItemResult, SchemaStore, SessionStore, OrganizationDirectory, Mailer, MailMessage, PasswordHasher, Clock, IdGenerator, ChangeFeed, Change, IdentityProvider, DirectionsService, GraphTokenSource, TenantRegistry, Tenant, ImportFiles, ExportWriter, AttemptLedger } from './ports/index.js';
/** The ports of files and cloud services (issue 18): blobs of File and Image fields, the cloud drive and calendars, providers' kept tokens; and a tenant's schema for the metadata editor. */
export type { BlobStore, BlobPutOutcome, StoredBlob, DriveGateway, CalendarGateway, CloudCalendarEvent, GraphUser, GraphFailure, ProviderTokens, ProviderSetting, TenantSchema, CompiledStep } from './ports/index.js';
/** The keeper of providers' tokens in one process's memory, and the key of a user's Graph calls. */
export { InMemoryProviderTokens, graphUserKey } from './ports/index.js';
/** Typed injection tokens of the ports (Token<T>), and the simple implementations: systemClock, InMemoryChangeFeed. */
export { Tokens, type Token, systemClock, InMemoryChangeFeed } from './ports/index.js';
/** The wire contract: API (one route table of every call with its request and answer codecs) and the branded Guid codec. */
export { API, Guid } from './api/index.js';
/** applyWrites / withWriteEffects: writes with their session effects (deactivating or deleting a user ends their sessions). */
export { applyWrites, withWriteEffects } from './services/apply-writes.js';
/** openSurvey / completeSurvey: a public survey link's page and its submission (expiry on the Clock, the core's required check). */
export { openSurvey, completeSurvey } from './services/complete-survey.js';
/** SignInService: password, magic-link and invitation sign-in over the SessionStore, OrganizationDirectory and Mailer ports. */
export { SignInService } from './services/sign-in.js';
/** whatsNext(deps, caller, filters): the follow-up list of the inu_nextrule rules (docs/whats-next.md). */
export { whatsNext } from './services/whats-next.js';
/** changeVisibleTo / changesVisibleTo: which changes of the realtime feed a user may see (a batch read once per entity). */
export { changeVisibleTo, changesVisibleTo } from './services/change-visible-to.js';
/** createOrganization / addUser: a new organization with its packs and first administrator. */
export { createOrganization, addUser } from './services/organization-setup.js';

// Texts
/** The message catalogue (en, sk, cz, de): translate(lang, key, params), chooseLanguage. */
export { translate, chooseLanguage, CATALOGUE_LANGUAGES, type Language, type MessageKey } from './i18n/index.js';
/** solvePuzzle / verifyPuzzle: the sign-up proof of work, the SHA-256 function passed in. */
export { solvePuzzle, verifyPuzzle } from './auth/puzzle.js';

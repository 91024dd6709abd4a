/**
 * @tessera/core/internal: the whole internal surface, for the adapters, the CLI, the web client and the
 * tests of this repository. Embedding hosts use the curated public API of index.ts instead.
 */
export * from './errors.js';
export * from './decode.js';
export * from './metadata/entity.js';
/** FIELD_TYPES: what each property type means (wire decode, stored form, import cell, query value, column kind); every switch on a type reads it. */
export * from './metadata/field-types.js';
export * from './metadata/field-type-samples.js';
export * from './query/query.js';
export * from './permissions/types.js';
/** packMask(levels) / unpackMask(mask): four 2-bit levels in 4-bit slots, create lowest; the full mask is 13107. */
export * from './permissions/mask.js';
/** effectivePermissions(roles, knownEntities): the highest level per operation of a user's roles, apps, custom owners, needsTeams. */
export * from './permissions/roles.js';
/** canAccess(user, operation, entity, record): the level-and-ownership decision; readScope(user, entity): the readable rows, dialect-free. */
export * from './permissions/access.js';
/** checkPermissionString(user, '{entity};{level}[;allowNew]', record?): commands, menu items, quick filters; default command permissions. */
export * from './permissions/permission-string.js';
export * from './records/values.js';
/** changeSet(loaded, edited): only the changed fields are sent (a cleared field as null). */
export * from './records/change-set.js';
/** mergeOnConflict(loaded, localChanges, server): local changes on the server record, or 'This record was modified by {modifier}'. */
export * from './records/merge.js';
/** Editing in the list: ListEdits (set, revert, add, delete, link toggles) and buildBatch, one executemultiple of them. */
export * from './records/list-edits.js';
/** checkRequired(properties, record, form?): Required flag or form override, not hidden; MsgRequiredFieldEmpty with a dash per label. */
export * from './records/required.js';
export * from './records/clone.js';
export * from './records/duration.js';
export * from './records/tags.js';
export * from './records/multi-select.js';
export * from './records/age.js';
export * from './records/relative-time.js';
export * from './records/options.js';
export * from './records/file-size.js';
export * from './records/error-log.js';
export * from './ports/index.js';
export * from './i18n/index.js';
export * from './auth/sign-in-rules.js';
export * from './auth/attempt-limits.js';
export * from './services/attempt-limiter.js';
export * from './services/public-call-limits.js';
export * from './services/sign-in.js';
/** Schema model of metadata, its diff into a migration plan, and the migrate use case (docs/schema.md). */
export * from './schema/index.js';
export * from './services/caller.js';
export * from './metadata/rich-options.js';
export * from './metadata/form.js';
export * from './metadata/view.js';
export * from './metadata/inu-view.js';
/** The inu_view editor (issue 15): checkViewBody (kind codec, queries, columns, chart fields; the path of a problem). */
export * from './metadata/view-body-check.js';
export * from './metadata/role.js';
export * from './metadata/currency.js';
export * from './metadata/user-context.js';
export * from './metadata/system-fields.js';
export * from './metadata/metadata-set.js';
export * from './metadata/default-form.js';
export * from './metadata/pack.js';
export * from './metadata/layout-edits.js';
export * from './metadata/customization.js';
export * from './packs/packs.js';
export * from './services/user-context.js';
export * from './services/app-error-log.js';
export * from './query/keyset.js';
export * from './query/plan.js';
export * from './query/validate-query.js';
/** The Setup Query dialog (issue 15): checkSetupQuery (JSON, codec, metadata; the path of a problem), fetch.json. */
export * from './query/setup-query.js';
export * from './query/evaluate-like.js';
export * from './query/evaluate-query.js';
/** Charts: a chart body to its aggregate query, the answer to categories and lines, the picked bar's condition, the palette. */
export * from './query/chart-query.js';
export * from './query/chart-palette.js';
export * from './store/audit.js';
export * from './store/record-rules.js';
export * from './store/record-writes.js';
export * from './store/write-rules.js';
export * from './store/auto-number.js';
export * from './store/line-item-totals.js';
export * from './store/record-reads.js';
/** Issue 18: an activity's (a document's) read follows its regarding record; the activity feed's queries, reminders and What's Next rows. */
export * from './permissions/regarding.js';
export * from './store/regarding-scope.js';
export * from './activity/feed.js';
export * from './activity/reminder.js';
export * from './activity/due-reminders.js';
export * from './store/in-memory-record-store.js';
export * from './services/organization-setup.js';
/** solvePuzzle / verifyPuzzle: the sign-up proof of work, the SHA-256 function passed in. */
export * from './auth/puzzle.js';
/** Civil dates (no zone): addDays, addMonths, addYears, isoWeek, mondayOfIsoWeek, ageInYears, parseCivil, formatCivil. */
export * from './dates/civil.js';
/** Wall time in IANA zones, DST-correct: wallTimeOf, instantOfWallTime, startOfDayInstant, civilDateOf, checkTimeZone. */
export * from './dates/zoned.js';
/** dateRange(option, reference, timeZone): half-open [start, end) of today ... previous-year (Monday weeks); day, week-number and age ranges. */
export * from './dates/date-range.js';
/** calendarFetchWindow and calendarWindowConditions: first of the month -10 / +40 days as end ge / start le conditions. */
export * from './dates/calendar-window.js';
/** Calendar (view mode 2): daysShown / stepDate (Monday weeks), 15-minute slots, movedSpan / resizedSpan (snapped), overlapColumns; eventOf, eventColor, calendarRequest, mayMoveEvent. */
export * from './dates/calendar-grid.js';
export * from './dates/calendar-events.js';
/** Map (view mode 1): mapFieldsOf, mapRequest (the list's fetch with coordinates), markerOf; the default centre and zooms. */
export * from './query/map-markers.js';
/** Quick filters to query conditions: quickFilterToFragment, quickFiltersToFetch (mandatory groups), effectiveSelection (mustSelect), minimumLength. */
export * from './query/quick-filters.js';
export * from './query/quick-filter-options.js';
export * from './query/personal-quick-filters.js';
/** {{name}} placeholders: replaceFilterPlaceholders, replaceFetchPlaceholders; an empty replacement turns the operator into null. */
export * from './query/placeholders.js';
/** Kanban (view mode 4): kanbanFieldOf, optionLanes, laneCountRequest, countedLanes, laneCardsRequest, mayMoveCard, moveCard / restoreCard. */
export * from './query/kanban-lanes.js';
/** Dashboards: supported filters (dates, lookups, option sets) and their conditions per objectname, the queries of numbers, gauges and grids, gaugePercent, objects by reference. */
export * from './query/dashboard.js';
/** Dashboard layout: gridTemplate and gridArea as checked CSS grid values, the stacking order of narrow screens. */
export * from './metadata/dashboard-layout.js';
/** whatsNextReferenceDate: today, tomorrow (2 days ahead at midnight), next-week (8 days ahead). */
export * from './whatsnext/reference-date.js';
/** Follow-up rules of inu_nextrule: nextRuleOf, isDue (older is strictly earlier), combineFollowUps (union, a record once, newest first). */
export * from './whatsnext/next-rule.js';
/** whatsNext(deps, caller, filters): the follow-up list of POST /api/whatsnext (docs/whats-next.md). */
export * from './services/whats-next.js';
/** The metadata editor (issue 15): a change's migration plan and its apply, as `tessera schema` does. */
export * from './services/metadata-editor.js';
/** Exact decimals on scaled integers, rounding half away from zero: toScaled, divRound, roundDecimal, sumDecimal. */
export * from './money/decimal.js';
/** formatMoney(amount, currency, settings): modes 0-3, precision default 2, Euro default, decimal separator from settings. */
export * from './money/format-money.js';
/** lineItemTotals (base = quantity x price, total = base x (100 - discount) / 100) and planLineItemSave (quantity 0, parent total). */
export * from './money/line-items.js';
/** mealAllowance(hours, mealsMask, date?): bands 0 / 8.8 / 13.1 / 19.5, meal cuts of the band-3 amount, rates from a decree table. */
export * from './travel/meal-allowance.js';
/** routeTotals and the leg operations of a travel report: newReportLegs, addStop, deleteLeg, changeLegDate, dietDays, routeDateBounds. */
export * from './travel/route.js';
/** The travel report's road distances (directions request and answer) and its record fields (legs_json, diet_json, totals). */
export * from './travel/directions.js';
export * from './travel/report.js';
/** Family budget allowances: childAllowance (60), parentalAllowance (351.80), familyAllowanceLines. */
export * from './budget/family-allowances.js';
/** Family budget lines: monthlyBalance (income + allowances - expense), budgetCsv (RodinnyRozpocet.csv). */
export * from './budget/budget-balance.js';
export * from './budget/budget-csv.js';
/** Community evaluation: checkCommunityEvaluation (eight scores, each 0 to 5), communityChartValues and communityAverage. */
export * from './community/evaluation.js';
/** Import file rules: readCsvPreamble, unescapeQuotedCell, RowReader, JsonArrayReader, coerceCell, markRows, previewImport, runImport, importTemplate, texts. */
export * from './import/index.js';
/** Export rules: CSV/JSON writers, formula neutralization, export options, totals, exportPlan, the PDF table model and fitColumns. */
export * from './export/index.js';
export * from './services/demo-records.js';
/** ProviderSignInService: sign-in and sign-up with a verified identity of an outside provider (Google, Facebook, Apple, Microsoft). */
export * from './services/provider-sign-in.js';
export * from './metadata/field-template.js';
export * from './metadata/localize.js';
/** Use cases the routes call (issue 12): writes with their session effects, surveys, the stream's visibility, import/export rules, the admin check. */
export * from './services/apply-writes.js';
export * from './services/complete-survey.js';
/** Surveys (issue 20): the designer's rules (surveyableProperties, readSurveyDesign, surveyMeta, moveSurveyField, surveyPath) and 'save to target'. */
export * from './surveys/survey-design.js';
export * from './services/save-survey-to-target.js';
export * from './services/change-visible-to.js';
export * from './services/importable-entity.js';
export * from './services/export-request.js';
export * from './services/administration.js';
/** The wire contract (docs/api.md): a request and an answer codec per call, the route table the server mounts and the client decodes with. */
export * from './api/index.js';
export * from './services/invitation.js';
export * from './services/sign-up-puzzle.js';
/** Scripts from the metadata (issue 16): the sandbox protocol codecs, scriptSource/commandScriptName, the change-event queue, scriptLine and failures. */
export * from './scripts/index.js';
/** Document generation (issue 20): the text template language (parse, render, escape), report bodies and their layout model, prepareDocument. */
export * from './templates/index.js';
/** Triggers: the write rule that queues runs of inu_changehandler (trigger-outbox) and the runner of inu_asyncaction rows (runDueTriggers, resumeRunning). */
export * from './store/trigger-outbox.js';
export * from './services/trigger-runs.js';
/** Files of File and Image fields (issue 18): signSas/verifySas, sniffContentType, blob names. */
export * from './files/index.js';
/** The zip preview's listing (name, modified date, size) from the central directory (issue 18). */
export * from './files/zip-listing.js';
/** The cloud drive and calendars (issue 18): Graph answer codecs, a record's drive folder, the cloud calendar feed. */
export * from './cloud/index.js';
/** Offline mode of the desktop app (issue 21): the change queue and its coalescing, Sync (runSync), pull, local passwords, the OfflineStore port. */
export * from './offline/index.js';

/** The cloud drive and calendars (Microsoft Graph): answer codecs, the record's drive folder, the calendar feed. */
export * from './graph-answers.js';
export * from './drive-folder.js';
export * from './cloud-calendar.js';

import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { inputError, type InputError } from '../errors.js';
import { translate } from '../i18n/index.js';

/** Spec 002: getusercontext is cached for offline use; without it: 'No user context, cannot work offline'. */
export const NO_USER_CONTEXT = translate('en', 'MsgNoUserContext'); // 'No user context, cannot work offline'; the UI shows MsgNoUserContext in its language

/**
 * Going offline (issue 21 Go Offline; also starting the desktop app with no network): allowed
 * only with a cached user context, which is what the app then runs on.
 */
export const goOffline = <C>(cachedUserContext: C | undefined | null): Either<InputError, C> =>
  cachedUserContext === undefined || cachedUserContext === null ? left(inputError(NO_USER_CONTEXT)) : right(cachedUserContext);

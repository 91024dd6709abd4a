/** The public pages, one chunk loaded on first visit. */
export { LoginPage } from './login.js';
export { MagicPage, PopupLoginPage } from './magic.js';
export { SignupPage, TrialPage } from './signup.js';
export { SurveyPage } from './survey.js';

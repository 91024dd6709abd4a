import { lazy, StrictMode, Suspense, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider, useLocation } from 'react-router';
import './styles.css';
import './state/theme.js';
import { ApiContext, apiClient } from './api/context.js';
import { takeProviderToken } from './api/provider-token.js';
import { installErrorReporting } from './state/app-errors.js';
import { AppRoot } from './shell/app-root.js';
import { AppHome, MenuByName } from './shell/menu-routes.js';
import { NotBuiltPage } from './shell/not-built-page.js';
import { COMING_PAGE_PATHS } from './shell/coming-pages.js';
import { NotFoundPage, RenderErrorBoundary, RouteErrorPage } from './shell/error-pages.js';
import { ListRoute } from './list/list-screen.js';
import { DialogHost, ToastHost } from './ui/dialogs.js';
import { QuickCreateContext, type QuickCreateProps } from './form/quick-create.js';
import { registerServiceWorker } from './pwa/register.js';
import { pinHost } from './pwa/desktop-mode.js';

/** Screens loaded when first opened, so a list opens without parsing the sign-in pages or the form. */
const later = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => {
  const C: ComponentType = lazy(() => load().then((m) => ({ default: m[name] as ComponentType })));
  return (
    <Suspense fallback={<div className="spinner" aria-busy="true" />}>
      <C />
    </Suspense>
  );
};
const publicPages = () => import('./public/pages.js');
/** The lookup's create dialog: the record form, loaded when first used. */
const QuickCreateForm: ComponentType<QuickCreateProps> = lazy(() => import('./form/record-form.js').then((m) => ({ default: m.QuickCreateForm })));

/** /, /list/* and /edit/* go under /!/ (spec 000 section 2). */
const UnderBang = () => {
  const loc = useLocation();
  return <Navigate to={`/!${loc.pathname === '/' ? '/' : loc.pathname}${loc.search}`} replace />;
};

// A provider sign-in lands with its token in the fragment: taken before the router reads the address.
takeProviderToken(apiClient);

const router = createBrowserRouter([
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/login', element: later(publicPages, 'LoginPage') },
      { path: '/magic', element: later(publicPages, 'MagicPage') },
      { path: '/signup', element: later(publicPages, 'SignupPage') },
      { path: '/trial', element: later(publicPages, 'TrialPage') },
      { path: '/popupLogin', element: later(publicPages, 'PopupLoginPage') },
      { path: '/ansu/:org/:key', element: later(publicPages, 'SurveyPage') },
      { path: '/', element: <UnderBang /> },
      { path: '/list/*', element: <UnderBang /> },
      { path: '/edit/*', element: <UnderBang /> },
      {
        path: '/:appId',
        element: <AppRoot />,
        children: [
          { index: true, element: <AppHome /> },
          { path: 'list/:name', element: <ListRoute /> },
          // Issue 20: report templates open in their editor with a live preview.
          { path: 'edit/report_template/:id', element: later(() => import('./documents/template-editor.js'), 'TemplateEditorRoute') },
          // Issue 15: a role opens in its permission grid; the localization editor.
          { path: 'edit/inu_role/:id', element: later(() => import('./role-editor/role-editor.js'), 'RoleEditorRoute') },
          { path: 'customizelocalization', element: later(() => import('./customize-localization/localization-editor.js'), 'LocalizationRoute') },
          // Issue 15: view definitions open in their JSON editor with a preview.
          { path: 'edit/inu_view/:id', element: later(() => import('./json-editors/inu-view-editor.js'), 'InuViewEditorRoute') },
          { path: 'edit/:name/:id', element: later(() => import('./form/record-form.js'), 'RecordFormRoute') },
          { path: 'edit/:name/:id/:form', element: later(() => import('./form/record-form.js'), 'RecordFormRoute') },
          { path: 'n/:uniqueName', element: <MenuByName /> },
          { path: 'cache', element: later(() => import('./admin/session-list.js'), 'SessionListPage') },
          // Issue 18: the sign-in providers' settings (administrators).
          { path: 'signinproviders', element: later(() => import('./admin/provider-settings.js'), 'ProviderSettingsPage') },
          { path: 'whatsnext', element: later(() => import('./whatsnext/whats-next-screen.js'), 'WhatsNextPage') },
          { path: 'export', element: later(() => import('./export/export-page.js'), 'ExportPage') },
          { path: 'import', element: later(() => import('./import/import-page.js'), 'ImportPage') },
          { path: 'dashboard/:name', element: later(() => import('./dashboard/dashboard-screen.js'), 'DashboardRoute') },
          // Issue 15: the metadata editor with its migration preview.
          { path: 'customizemetadata', element: later(() => import('./customize-metadata/metadata-editor-screen.js'), 'MetadataEditorPage') },
          // Spec routes whose screens are not built yet say so, rather than 'Page not found'.
          ...COMING_PAGE_PATHS.map((path) => ({ path, element: <NotBuiltPage /> })),
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

installErrorReporting(apiClient);
// Issue 21: the installable app starts with no network (production builds only); the desktop build's fixed host.
registerServiceWorker();
pinHost(apiClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApiContext.Provider value={apiClient}>
      <RenderErrorBoundary>
        <QuickCreateContext.Provider value={QuickCreateForm}>
          <RouterProvider router={router} />
        </QuickCreateContext.Provider>
        <DialogHost />
        <ToastHost />
      </RenderErrorBoundary>
    </ApiContext.Provider>
  </StrictMode>,
);

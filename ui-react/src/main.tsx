import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider, useLocation } from 'react-router';
import './styles.css';
import './state/theme.js';
import { ApiContext, apiClient } from './api/context.js';
import { installErrorReporting } from './state/app-errors.js';
import { LoginPage } from './public/login.js';
import { MagicPage, PopupLoginPage } from './public/magic.js';
import { SignupPage, TrialPage } from './public/signup.js';
import { SurveyPage } from './public/survey.js';
import { AppHome, AppRoot, MenuByName } from './shell/shell.js';
import { NotFoundPage, RenderErrorBoundary, RouteErrorPage } from './shell/error-pages.js';
import { ListScreen } from './list/list-screen.js';
import { RecordFormRoute } from './form/record-form.js';
import { DialogHost, ToastHost } from './ui/dialogs.js';

/** /, /list/* and /edit/* go under /!/ (spec 000 section 2). */
const UnderBang = () => {
  const loc = useLocation();
  return <Navigate to={`/!${loc.pathname === '/' ? '/' : loc.pathname}${loc.search}`} replace />;
};

const router = createBrowserRouter([
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/magic', element: <MagicPage /> },
      { path: '/signup', element: <SignupPage /> },
      { path: '/trial', element: <TrialPage /> },
      { path: '/popupLogin', element: <PopupLoginPage /> },
      { path: '/ansu/:org/:key', element: <SurveyPage /> },
      { path: '/', element: <UnderBang /> },
      { path: '/list/*', element: <UnderBang /> },
      { path: '/edit/*', element: <UnderBang /> },
      {
        path: '/:appId',
        element: <AppRoot />,
        children: [
          { index: true, element: <AppHome /> },
          { path: 'list/:name', element: <ListScreen /> },
          { path: 'edit/:name/:id', element: <RecordFormRoute /> },
          { path: 'edit/:name/:id/:form', element: <RecordFormRoute /> },
          { path: 'n/:uniqueName', element: <MenuByName /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

installErrorReporting(apiClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApiContext.Provider value={apiClient}>
      <RenderErrorBoundary>
        <RouterProvider router={router} />
        <DialogHost />
        <ToastHost />
      </RenderErrorBoundary>
    </ApiContext.Provider>
  </StrictMode>,
);

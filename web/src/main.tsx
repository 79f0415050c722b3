import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { loadRuntimeConfig } from './app/runtime-config';
import { configureSession } from './auth/session';
import { configureApi } from './api/client';
import { createQueryClient } from './api/query-client';
import { createRouter } from './app/router';
import './styles.css';

const root = createRoot(document.getElementById('root')!);

/** Reads /config.json, wires sign-in and the API client to it, then renders the app. */
async function start(): Promise<void> {
  const config = await loadRuntimeConfig();
  configureSession(config);
  configureApi(config.apiBaseUrl);
  const queryClient = createQueryClient();
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={createRouter()} />
      </QueryClientProvider>
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  root.render(
    <main id="main" className="centered">
      <h1>Gatehouse could not start</h1>
      <p role="alert">{error instanceof Error ? error.message : String(error)}</p>
    </main>,
  );
});

import { createContext, useContext } from 'react';
import { ApiClient } from './client.js';

/** The browser gets its API client through React context (ARCHITECTURE.md). */
export const apiClient = new ApiClient();
export const ApiContext = createContext<ApiClient>(apiClient);
export const useApi = (): ApiClient => useContext(ApiContext);

export type { SelectedStore } from './select-home-store.js';
export { homeFileStore, selectHomeStore } from './select-home-store.js';
export type { StoreSelection } from './store-selection.js';
export { readStoreSelection } from './store-selection.js';
export {
  STORE_CREDS_VARIABLE,
  STORE_REPLICAS_VARIABLE,
  STORE_TLS_VARIABLES,
  STORE_VARIABLE,
} from './store-variables.js';

// The variables that choose a home's store; apart from the selection itself, so the
// common case (none set) loads nothing more to learn that.

/** The variable that selects the store of a home's runs; it overrides the `store.url` setting. */
export const STORE_VARIABLE = 'TEAMKIT_STORE';
/** A `.creds` file or an nkey seed file for the NATS server; overrides `store.credsFile`. */
export const STORE_CREDS_VARIABLE = 'TEAMKIT_STORE_CREDS';
/** Copies of each stream the store creates (1, 3 or 5); overrides `store.replicas`. */
export const STORE_REPLICAS_VARIABLE = 'TEAMKIT_STORE_REPLICAS';
/** TLS files for `tls://` servers: the CA, and a client certificate and key when asked. */
export const STORE_TLS_VARIABLES = {
  caFile: 'TEAMKIT_STORE_TLS_CA',
  certFile: 'TEAMKIT_STORE_TLS_CERT',
  keyFile: 'TEAMKIT_STORE_TLS_KEY',
} as const;

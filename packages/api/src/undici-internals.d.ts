/** Types of the undici modules the client loads by their paths (see core/undici-parts.ts). */
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}

declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import { EnvHttpProxyAgent } from 'undici';
  export default EnvHttpProxyAgent;
}

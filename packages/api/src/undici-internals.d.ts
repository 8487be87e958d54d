/** Types of the undici modules the client loads by their paths (see core/undici-parts.ts). */
declare module 'undici/lib/api/index.js' {
  import type { Dispatcher } from 'undici';
  /** The request methods undici's index puts on every dispatcher. */
  const methods: Pick<Dispatcher, 'request' | 'stream' | 'pipeline' | 'upgrade' | 'connect'>;
  export default methods;
}

declare module 'undici/lib/dispatcher/dispatcher.js' {
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}

declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}

declare module 'undici/lib/dispatcher/proxy-agent.js' {
  import { ProxyAgent } from 'undici';
  export default ProxyAgent;
}

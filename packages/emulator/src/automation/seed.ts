/** What the automation part of the seed holds, and the default one. */

interface AccountSeed {
  username: string;
  accessKey: string;
  name?: string;
  email?: string;
  /** Makes this account a sub-account of `parent`. */
  parent?: string;
  partner?: boolean;
  plan?: string;
  concurrencyLimit?: number;
}

export interface TunnelSeed {
  owner: string;
  tunnel_identifier: string;
  status?: 'new' | 'booting' | 'deploying' | 'halting' | 'running' | 'terminated';
  /** Fixed id; default a fresh one. */
  id?: string;
}

interface JobSeed {
  owner: string;
  name: string;
  build?: string;
  browser?: string;
  browserVersion?: string;
  os?: string;
  passes: boolean;
  tags?: string[];
  /** How long before the emulator started the job ended. */
  endedSecondsAgo?: number;
  id?: string;
}

interface BugSeed {
  id: string;
  owner: string;
  type: string;
  jobId?: string;
  title: string;
  description: string;
}

export interface AutomationSeed {
  users: AccountSeed[];
  tunnels?: TunnelSeed[];
  jobs?: JobSeed[];
  bugs?: BugSeed[];
}

export function defaultAutomationSeed(): AutomationSeed {
  return {
    // The demo account is a partner so that the partner operations can be tried with it.
    users: [
      {
        username: 'demo',
        accessKey: 'demo-access-key',
        name: 'Demo User',
        email: 'demo@example.com',
        partner: true,
        plan: 'enterprise',
        concurrencyLimit: 10,
      },
    ],
    tunnels: [{ owner: 'demo', tunnel_identifier: 'demo-tunnel', status: 'running' }],
    jobs: [
      {
        id: '5f2e1b9c0a7d4e3f8b6a1c2d3e4f5a6b',
        owner: 'demo',
        name: 'Login works',
        build: 'demo-build-1',
        passes: true,
        tags: ['smoke'],
        endedSecondsAgo: 3600,
      },
      {
        id: '9a8b7c6d5e4f30211f2e3d4c5b6a7988',
        owner: 'demo',
        name: 'Checkout fails',
        build: 'demo-build-1',
        browser: 'firefox',
        browserVersion: '128.0',
        passes: false,
        tags: ['smoke'],
        endedSecondsAgo: 3500,
      },
    ],
    bugs: [
      {
        id: 'b0000000000000000000000000000001',
        owner: 'demo',
        type: 'functional',
        jobId: '9a8b7c6d5e4f30211f2e3d4c5b6a7988',
        title: 'Checkout button does nothing',
        description: 'Clicking "Pay" on the checkout page leaves the page unchanged.',
      },
    ],
  };
}

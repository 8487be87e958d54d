import { ApiError, SauceClient, TransportError } from '@sauce-actions/api';
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  abortReasonOf,
  ActionError,
  CancelledError,
  clearSecrets,
  describeFailure,
  InputError,
  registerSecret,
  StepTimeoutError,
} from '../../src/index.ts';

beforeEach(() => clearSecrets());

const request = { operation: 'inviteTesters', method: 'POST', url: '/api/1/x' };

describe('describeFailure', () => {
  it('tells input mistakes, refusals, rate limits and service trouble apart', () => {
    const input = describeFailure(new InputError('file', 'is required but was empty'));
    expect(input).toEqual({
      kind: 'input',
      message: 'Input "file" is required but was empty. Fix the input and run the step again.',
    });
    const refused = describeFailure(new ApiError({ ...request, status: 404 }));
    expect(refused.kind).toBe('refused');
    expect(refused.message).toContain('check the ids');
    const limited = describeFailure(new ApiError({ ...request, status: 429 }));
    expect(limited.kind).toBe('rate-limited');
    expect(limited.message).toContain('429 Too Many Requests');
    expect(limited.message).toContain('max-parallel');
    const down = describeFailure(new ApiError({ ...request, status: 503 }));
    expect(down.kind).toBe('service');
    expect(down.message).toContain('run the job again later');
    const unreachable = new TransportError({ ...request, kind: 'connect', message: 'connect ECONNREFUSED' });
    expect(describeFailure(unreachable)).toMatchObject({ kind: 'service' });
    expect(describeFailure(unreachable).message).toContain('api-url');
    expect(describeFailure(new ActionError('tests-failed', 'Do this.'))).toEqual({
      kind: 'tests-failed',
      message: 'Do this.',
    });
    expect(describeFailure(new Error('boom')).kind).toBe('bug');
  });

  it('words a refused OIDC token as such, with its claims on one line and no API key named', () => {
    const refusal = { ...request, status: 401, code: 5, serviceMessage: 'Invalid OIDC token' };
    const withClaims = describeFailure(
      new ApiError({
        ...refusal,
        refusedToken: { claims: { audience: ['a', 'b\n::error::x'], issuer: 'https://issuer.example' } },
      }),
    );
    expect(withClaims.kind).toBe('refused');
    expect(withClaims.message).toMatch(/^Sauce Labs refused the OIDC token \(no API key was sent\): /);
    expect(withClaims.message).toContain(
      'issued for the audience (`aud`) "a", "b ::error::x" by the issuer (`iss`) "https://issuer.example"',
    );
    expect(withClaims.message).not.toContain('\n');
    expect(withClaims.message).toContain('`oidc-config-key`');
    expect(withClaims.message).toContain('`oidc-audience` sets it (default `sauce-labs`)');
    expect(withClaims.message).not.toMatch(/api-key|API key was refused/);
    const opaque = describeFailure(new ApiError({ ...refusal, refusedToken: { claims: undefined } }));
    expect(opaque.message).toContain('The token is not a JWT, so its audience (`aud`) and issuer (`iss`)');
    const none = describeFailure(
      new ApiError({ ...refusal, refusedToken: { claims: { audience: undefined, issuer: undefined } } }),
    );
    expect(none.message).toContain('for the audience (`aud`) none by the issuer (`iss`) none.');
  });

  it('words an abort as the timeout or the cancellation that caused it', () => {
    const aborted = new TransportError({ ...request, kind: 'aborted', message: 'aborted' });
    const timedOut = new AbortController();
    timedOut.abort(new StepTimeoutError(90_000));
    expect(abortReasonOf(timedOut.signal)).toBe('timeout');
    expect(describeFailure(aborted, timedOut.signal)).toEqual({
      kind: 'timeout',
      message:
        'Timed out: the `timeout` of 90s passed during inviteTesters. Raise `timeout` if the step needs longer.',
    });
    const cancelled = new AbortController();
    cancelled.abort(new CancelledError('the run was cancelled (SIGTERM)'));
    expect(describeFailure(aborted, cancelled.signal)).toEqual({
      kind: 'cancelled',
      message: 'Cancelled: the run was cancelled (SIGTERM) during inviteTesters.',
    });
    // The client keeps the reason on the error: a step's own deadline reads as a timeout
    // even where the host only knows its cancellation signal.
    const ownDeadline = new TransportError({
      ...request,
      kind: 'aborted',
      message: 'request aborted',
      cause: new StepTimeoutError(60_000),
    });
    expect(describeFailure(ownDeadline, new AbortController().signal).kind).toBe('timeout');
    expect(describeFailure(new StepTimeoutError(1000)).kind).toBe('timeout');
    // An abort with no step signal behind it is still a cancellation, not service trouble.
    expect(describeFailure(aborted).kind).toBe('cancelled');
    // A service answer is its own failure even after the signal fired.
    expect(describeFailure(new ApiError({ ...request, status: 401 }), timedOut.signal).kind).toBe('refused');
  });

  it('calls anything else a bug, and says how to get debug logs on either host', () => {
    const failure = describeFailure(new TypeError('x is not a function'));
    expect(failure.kind).toBe('bug');
    expect(failure.message).toBe(
      'Unexpected error: x is not a function. Run it again with debug logging (on GitHub the secret ACTIONS_STEP_DEBUG=true, on the command line --verbose) and report it if it repeats.',
    );
  });

  it('never repeats a registered secret', () => {
    registerSecret('s3cret-value');
    const message = describeFailure(new Error('echoed s3cret-value back')).message;
    expect(message).not.toContain('s3cret-value');
    expect(message).toContain('***');
  });
});

describe('describeFailure of requests the client could not complete', () => {
  const ORIGIN = 'https://api.us-west-1.saucelabs.com';
  const RUN_PATH = '/v1/ai-authoring/testsuites/s1/run';
  const clients: SauceClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  /** A client whose service gives `answers` in turn; an Error answer cuts the connection. */
  function clientAnswering(
    answers: ({ status: number; headers?: Record<string, string> } | Error)[],
    retry: ConstructorParameters<typeof SauceClient>[0] = {},
  ) {
    const agent = new MockAgent({ enableCallHistory: true });
    agent.disableNetConnect();
    const pool = agent.get(ORIGIN);
    for (const answer of answers) {
      const interceptor = pool.intercept({ path: () => true, method: () => true });
      if (answer instanceof Error) interceptor.replyWithError(answer);
      else
        interceptor.reply(answer.status, { message: 'from the service' }, { headers: answer.headers ?? {} });
    }
    const client = new SauceClient({
      username: 'alice',
      accessKey: 'secret-access-key',
      dispatcher: agent,
      retry: { minDelayMs: 1, maxDelayMs: 2 },
      ...retry,
    });
    clients.push(client);
    return { client, sent: () => agent.getCallHistory()?.calls().length ?? 0 };
  }

  const cut = () => Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });

  it('words a 429 whose wait would pass the deadline as rate-limited, with the wait asked for', async () => {
    const { client, sent } = clientAnswering([{ status: 429, headers: { 'retry-after': '120' } }]);
    const error = await client.authoring.testSuites
      .run('s1', {}, { deadline: performance.now() + 10_000 })
      .catch((failure: unknown) => failure);
    const failure = describeFailure(error);
    expect(failure.kind).toBe('rate-limited');
    expect(failure.message).toContain("asked to wait 2m, past the step's deadline");
    expect(failure.message).toContain('max-parallel');
    expect(failure.message).toContain('`timeout`');
    expect(failure.message).toContain('Nothing was carried out');
    expect(sent()).toBe(1);
  });

  it('words 429s that outlast the retries as rate-limited, never as service trouble', async () => {
    const { client, sent } = clientAnswering([{ status: 429 }, { status: 429 }, { status: 429 }], {
      retry: { minDelayMs: 1, maxDelayMs: 2, rateLimitRetries: 2 },
    });
    const error = await client.authoring.testSuites.run('s1').catch((failure: unknown) => failure);
    const failure = describeFailure(error);
    expect(failure.kind).toBe('rate-limited');
    expect(failure.message).toContain('kept answering 429 Too Many Requests after 3 tries');
    expect(failure.message).toContain('max-parallel');
    expect(failure.message).not.toContain('service side');
    expect(sent()).toBe(3);
  });

  it('says a suite run cut off after sending may have started, and where to check, not the address', async () => {
    const { client, sent } = clientAnswering([cut()]);
    const error = await client.authoring.testSuites.run('s1').catch((failure: unknown) => failure);
    const failure = describeFailure(error);
    expect(failure.kind).toBe('service');
    expect(failure.message).toMatch(
      /^The connection to Sauce Labs was cut after the request was sent: runSuite: /,
    );
    expect(failure.message).toContain(
      "Sending runSuite again could do it twice, and it may have started the suite run already: check the suite's runs in Sauce Labs AI test authoring",
    );
    expect(failure.message).not.toContain('api-url');
    expect(failure.message).not.toContain('proxy');
    expect(sent()).toBe(1);
  });

  it('says a suite run answered 503 may have started', async () => {
    const { client, sent } = clientAnswering([{ status: 503 }]);
    const error = await client.authoring.testSuites.run('s1').catch((failure: unknown) => failure);
    const failure = describeFailure(error);
    expect(failure.kind).toBe('service');
    expect(failure.message).toContain(`runSuite: 503 from the service`);
    expect(failure.message).toContain('may have started the suite run already');
    expect(failure.message).toContain('before running the step again');
    expect(sent()).toBe(1);
  });

  it('keeps the address and network advice for failures to connect only', async () => {
    const { client } = clientAnswering([cut(), cut()], {
      retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 },
    });
    const error = await client.authoring.testSuites.get('s1').catch((failure: unknown) => failure);
    const failure = describeFailure(error);
    expect(failure.kind).toBe('service');
    expect(failure.message).toContain(
      'The connection to Sauce Labs was cut after the request was sent: getTestSuite: UND_ERR_SOCKET',
    );
    expect(failure.message).toContain('the address is right');
    expect(failure.message).not.toContain('api-url');
    expect(failure.message).not.toContain('may have');

    const refused = new TransportError({
      ...RUN_REQUEST,
      kind: 'connect',
      code: 'ECONNREFUSED',
      message: 'ECONNREFUSED',
    });
    expect(describeFailure(refused).message).toContain('Check `region` and `api-url`');
  });

  it('says where to check when the deadline stopped a request on its way', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get(ORIGIN).intercept({ path: RUN_PATH, method: 'POST' }).reply(201, {}).delay(1000);
    const client = new SauceClient({ username: 'alice', accessKey: 'secret-access-key', dispatcher: agent });
    clients.push(client);
    const step = new AbortController();
    setTimeout(() => step.abort(new StepTimeoutError(60_000)), 30);
    const error = await client.authoring.testSuites
      .run('s1', {}, { signal: step.signal })
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ kind: 'aborted', mayHaveBeenProcessed: true });
    const failure = describeFailure(error, step.signal);
    expect(failure.kind).toBe('timeout');
    expect(failure.message).toBe(
      "Timed out: the `timeout` of 1m passed during runSuite. runSuite was on its way: the service may have started the suite run; check the suite's runs in Sauce Labs AI test authoring (or the builds on the dashboard) before running the step again. Raise `timeout` if the step needs longer.",
    );
  });

  const RUN_REQUEST = { operation: 'runSuite', method: 'POST', url: RUN_PATH };
});

describe('describeFailure: what stands between the runner and the service', () => {
  const upload = { operation: 'uploadBuild', method: 'POST', url: '/api/upload/' };

  it.each([
    [
      'a 407 without credentials',
      { url: 'http://proxy.example:3128', variable: 'HTTPS_PROXY', status: 407, hadCredentials: false },
      /Put the proxy's user name and password in `HTTPS_PROXY`: http:\/\/user:password@host:port/,
    ],
    [
      'a 407 with credentials',
      { url: 'http://proxy.example:3128', variable: 'https_proxy', status: 407, hadCredentials: true },
      /Check the user name and password in `https_proxy`/,
    ],
    [
      'another refusal of the tunnel',
      { url: 'http://proxy.example:3128', variable: 'HTTPS_PROXY', status: 403 },
      /Ask the proxy's administrators to let this machine reach Sauce Labs/,
    ],
    [
      'a proxy that cannot be reached',
      { url: 'http://proxy.example:3128', variable: 'HTTP_PROXY' },
      /Check the address and port in `HTTP_PROXY` and that the proxy is running/,
    ],
    ['a variable that is not an address', { variable: 'HTTPS_PROXY' }, /Fix `HTTPS_PROXY`/],
  ])('%s is network trouble, with what to fix, and no word of the service', (_what, proxy, advice) => {
    const failure = describeFailure(
      new TransportError({ ...upload, kind: 'connect', message: 'the proxy … refused the request', proxy }),
    );
    expect(failure.kind).toBe('network');
    expect(failure.message).toMatch(
      /^The proxy stood in the way: uploadBuild: the proxy … refused the request/,
    );
    expect(failure.message).toMatch(advice);
    expect(failure.message).not.toMatch(/may have|stored|status\.saucelabs\.com|Sauce Labs failed/);
  });

  it.each([
    ['redirect', 'network', /redirect instead of an answer.*check `api-url`/],
    ['html', 'network', /A web page came instead of Sauce Labs' answer.*captive portal/],
    ['encoding', 'network', /compressed in a way the client cannot read/],
    ['too-large', 'service', /far larger than Sauce Labs sends/],
    ['not-json', 'service', /Sauce Labs' answer could not be read.*garbled it/],
  ] as const)('an answer that cannot be used (%s) says what came', (unusable, kind, words) => {
    const failure = describeFailure(
      new ApiError({ operation: 'listJobs', method: 'GET', url: '/jobs', status: 200, unusable }),
    );
    expect(failure.kind).toBe(kind);
    expect(failure.message).toMatch(words);
  });

  it('an unusable answer to a request that starts something says where to look', () => {
    const failure = describeFailure(
      new ApiError({ ...upload, status: 200, unusable: 'html', mayHaveBeenProcessed: true }),
    );
    expect(failure.message).toContain('it may have stored the build already');
  });
});

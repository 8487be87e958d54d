/**
 * The fault matrix, end to end, on the POSTs that create something: every action's committed
 * bundle, run as the runner runs it (post step included) against an emulator of its own that
 * answers such a POST with 503, or cuts its connection. Each row checks that the POST was sent
 * once and never again: the exit code, the message (what may have been done, and where to look),
 * the outputs, the journal of requests, and what the service was left with.
 */
import { expect } from 'vitest';
import {
  describeRows,
  mobileState,
  STEP,
  withWorkspace,
  type Row,
  type Sent,
} from '../support/fault-matrix.ts';
import * as route from '../support/routes.ts';

const KINDS = {
  '503': { fault: { status: 503 }, answered: 503 },
  cut: { fault: { drop: true }, answered: 0 },
} as const;
type Kind = keyof typeof KINDS;

/** What the message names: the operation, what it may have done, and where to look. */
type Said = [operation: string, effect: string, where: string];

/** A request that was never sent again: the message says what may have happened and where to look. */
function mayHaveBeenDone(kind: Kind, [operation, effect, where]: Said): RegExp {
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const what =
    kind === '503'
      ? `^Sauce Labs failed while handling the request: ${operation}: 503 .*the service may have carried it out, so it was not sent again`
      : `^The connection to Sauce Labs was cut after the request was sent: ${operation}: the connection was cut after the request was sent .*the service may have carried it out, so it was not sent again`;
  return new RegExp(
    `${what}.*Sending ${operation} again could do it twice, and it may have ${escape(effect)} already: check ${escape(where)} before running the step again\\.`,
  );
}

/** A POST that creates, and what the step and the service are left with when it fails. */
type Post = Pick<Row, 'name' | 'action' | 'lab' | 'inputs' | 'outputs' | 'jobs' | 'post' | 'then'> & {
  target: string;
  said: Said;
  /** The requests that would have come next: never sent. */
  next: Sent[];
};

const never = (method: string, path: string): Sent => [method, path, []];
const APP_DISTRIBUTION = 'in Sauce Labs mobile app distribution';

/** invite-testers' outputs: what was done before the POST that failed. */
const invited = (added: string, created: string) => ({
  'build-id': '1',
  'invited-groups': '',
  'added-testers': added,
  'refused-testers': '',
  'created-groups': created,
});

const POSTS: Post[] = [
  {
    name: 'upload-build, the upload',
    ...STEP.upload,
    target: route.UPLOAD,
    said: ['uploadBuild', 'stored the build', `the project's builds ${APP_DISTRIBUTION}`],
    outputs: {},
    next: [],
    then: (lab) => expect(mobileState(lab).builds).toBe(0),
  },
  ...[
    {
      name: 'creating the group',
      target: route.GROUPS,
      said: ['createTesterGroup', 'created the group', `the tester groups ${APP_DISTRIBUTION}`] as Said,
      outputs: invited('', ''),
      next: [never('POST', route.TESTERS), never('POST', route.INVITES)],
    },
    {
      name: 'adding the tester',
      target: route.TESTERS,
      said: ['addTesters', 'added the testers', `the testers ${APP_DISTRIBUTION}`] as Said,
      outputs: invited('', 'launch'),
      next: [never('POST', route.INVITES)],
    },
    {
      name: 'inviting',
      target: route.INVITES,
      said: ['inviteToBuild', 'invited the testers', `the build's testers ${APP_DISTRIBUTION}`] as Said,
      outputs: invited('dave@example.com', 'launch,nightly'),
      next: [],
    },
  ].map(({ name, ...post }): Post => ({
    ...post,
    name: `invite-testers, ${name}`,
    ...STEP.invite,
    // What came before the POST that failed was done once; the invitation, never.
    then: (lab) => {
      const state = mobileState(lab);
      expect(state.groups('launch')).toBe(post.target === route.GROUPS ? 0 : 1);
      expect(state.audits('added testers')).toBe(post.target === route.INVITES ? 1 : 0);
      expect(state.audits('invited')).toBe(0);
    },
  })),
  {
    name: 'run-suite-and-wait, the start',
    ...STEP.suite,
    target: route.SUITE_RUN,
    said: [
      'runSuite',
      'started the suite run',
      "the suite's runs in Sauce Labs AI test authoring (or the builds on the dashboard)",
    ],
    outputs: {},
    next: [never('GET', route.JOBS)],
    jobs: 0,
    post: 'idle',
    then: (lab) => expect(lab.emulator.context.authoring.data.suiteRuns).toEqual([]),
  },
  {
    name: 'run-js-tests, the start',
    ...STEP.js,
    target: route.JS_START,
    said: ['startJsTests', 'started the jobs', 'the jobs on the Sauce Labs dashboard'],
    outputs: {},
    next: [never('POST', route.JS_STATUS)],
    jobs: 0,
    post: 'idle',
    then: (lab) => expect(lab.emulator.context.automation.data.jsTests).toEqual({}),
  },
];

withWorkspace();
describeRows(
  '503 and cut connections on POSTs that create: sent once',
  POSTS.flatMap(({ target, said, next, ...post }) =>
    (Object.keys(KINDS) as Kind[]).map((kind): Row => ({
      ...post,
      name: `${post.name}: ${kind}`,
      faults: [{ method: 'POST', path: target, ...KINDS[kind].fault }],
      exit: 1,
      failure: mayHaveBeenDone(kind, said),
      sent: [['POST', target, [KINDS[kind].answered]], ...next],
    })),
  ),
);

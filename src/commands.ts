/**
 * The command line's subcommands: each action's embedded `action.yml` (help, flags, defaults) and
 * its code, loaded only when that subcommand runs, so that `--help` and a mistyped flag answer
 * without loading any action.
 */
import type { CliCommand } from '@sauce-actions/action-kit/hosts/cli-command';
import inviteTesters from '../actions/invite-testers/action.yml';
import manageTunnel from '../actions/manage-tunnel/action.yml';
import promoteBuild from '../actions/promote-build/action.yml';
import runJsTests from '../actions/run-js-tests/action.yml';
import runSuiteAndWait from '../actions/run-suite-and-wait/action.yml';
import uploadBuild from '../actions/upload-build/action.yml';

export const COMMANDS: readonly CliCommand[] = [
  {
    name: 'upload-build',
    metadata: uploadBuild,
    load: () => import('../actions/upload-build/src/definition.ts'),
  },
  {
    name: 'invite-testers',
    metadata: inviteTesters,
    load: () => import('../actions/invite-testers/src/definition.ts'),
  },
  {
    name: 'promote-build',
    metadata: promoteBuild,
    load: () => import('../actions/promote-build/src/definition.ts'),
  },
  {
    name: 'run-suite-and-wait',
    metadata: runSuiteAndWait,
    load: () => import('../actions/run-suite-and-wait/src/definition.ts'),
  },
  {
    name: 'run-js-tests',
    metadata: runJsTests,
    load: () => import('../actions/run-js-tests/src/definition.ts'),
  },
  {
    name: 'manage-tunnel',
    metadata: manageTunnel,
    load: () => import('../actions/manage-tunnel/src/definition.ts'),
    // A Sauce Connect it started serves the steps that follow: it runs until the command is stopped.
    holdsWhatItStarted: true,
  },
];

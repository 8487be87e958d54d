#!/usr/bin/env node
/** `sauce-actions <action> [--<input> <value>]...`: the actions on any CI system or terminal. */
import { processIo, runCli } from '@sauce-actions/action-kit/hosts/cli-host';
import cliPackage from '../packages/cli/package.json' with { type: 'json' };
import { COMMANDS } from './commands.ts';

process.exitCode = await runCli(COMMANDS, process.argv.slice(2), processIo(), {
  version: cliPackage.version,
  node: { version: process.versions.node, execPath: process.execPath },
});

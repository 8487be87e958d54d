#!/usr/bin/env node
/** `sauce-actions <action> [--<input> <value>]...`: the actions on any CI system or terminal. */
import { processIo, runCli } from '@sauce-actions/action-kit/hosts/cli-host';
import { COMMANDS } from './commands.ts';

process.exitCode = await runCli(COMMANDS, process.argv.slice(2), processIo());

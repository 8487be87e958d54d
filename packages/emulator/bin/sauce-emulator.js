#!/usr/bin/env node
// The command line entry; the emulator's sources are TypeScript that Node 24 runs as they are.
import '../src/cli.ts';

/**
 * Preloaded (`node --import`) into a process measured from outside, such as a bundled action run
 * by the harness: prints the process's peak resident memory on stderr as it exits.
 */
process.on('exit', () => {
  process.stderr.write(`max-rss-bytes ${process.resourceUsage().maxRSS * 1024}\n`);
});

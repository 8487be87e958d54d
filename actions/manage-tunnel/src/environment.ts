/**
 * The environment Sauce Connect starts from when the host gives none: this process's, as the runner
 * set it up (proxy settings, PATH). The step's deps do not carry the host's environment yet, so the
 * default lives here, apart from `run`, which reads nothing from the process itself.
 */
import type { Environment } from './launch.ts';

export function hostEnvironment(): Environment {
  return process.env;
}

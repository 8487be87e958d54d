/**
 * Runs before every test file whose worker is shared with other files (`isolate: false`), where
 * modules are loaded once per worker: what the kit keeps for a whole process is put back as a new
 * worker would have it. A secret one file registered (`key`, say) would otherwise be redacted
 * from the summaries and errors of the next.
 */
import { clearSecrets } from '@sauce-actions/action-kit/step/secrets';

clearSecrets();

/**
 * Whether a run sends its one message (`notify-on`): `change` when something changed against the
 * previous run of the default branch (a new failure, a fixed case, a newly flaky one), so that a nightly
 * that fails the same way every night is not muted within a week; `failure` on any failure;
 * `always`; `never`. Only the step that has the whole run decides: a shard never sends.
 */
import type { NotifyOn } from '../../inputs/notify-inputs.ts';
import type { Comparison } from '../history/comparison.ts';

/** Why the message is sent, in a few words for the log; undefined: it is not. */
export function notifyReason(
  notifyOn: NotifyOn,
  comparison: Pick<Comparison, 'classification'>,
  failed: number,
): string | undefined {
  const { counts, items } = comparison.classification;
  switch (notifyOn) {
    case 'never':
      return undefined;
    case 'always':
      return 'notify-on is always';
    case 'failure':
      return failed > 0 ? `${failed} failed` : undefined;
    case 'change': {
      // A case flaky every night is no news: only one that was not flaky in the run before is.
      const newlyFlaky = items.filter((item) => item.newlyFlaky).length;
      const changes = [
        counts.new > 0 ? `${counts.new} new failure(s)` : '',
        counts.fixed > 0 ? `${counts.fixed} fixed` : '',
        newlyFlaky > 0 ? `${newlyFlaky} newly flaky` : '',
      ].filter((part) => part !== '');
      return changes.length > 0 ? changes.join(', ') : undefined;
    }
  }
}

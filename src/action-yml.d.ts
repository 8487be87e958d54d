/** An action's `action.yml`, which the build embeds as its parsed metadata (see `scripts/build-actions.ts`). */
declare module '*/action.yml' {
  import type { ActionMetadata } from '@sauce-actions/action-kit/hosts/action-metadata';

  const metadata: ActionMetadata;
  export default metadata;
}

/** Runs invite-testers' `run()` against an emulator's demo account with the given inputs. */
import { createClient, InputReader, inputSource } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { readInputs } from '../src/inputs.ts';
import { run } from '../src/run.ts';

export async function runInvite(apiUrl: string, values: Record<string, string>) {
  const inputs = readInputs(
    new InputReader(
      inputSource(
        { 'api-url': apiUrl, 'api-key': 'demo-api-key', email: 'demo@example.com', ...values },
        { env: {} },
      ),
    ),
  );
  const deps = testStepDeps();
  const client = createClient(inputs.connection, deps.logger);
  try {
    return { result: await run(inputs, { ...deps, client }), deps };
  } finally {
    await client.close();
  }
}

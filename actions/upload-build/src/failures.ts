/** The upload's documented failure codes, worded as what to do next. */
import { ActionError } from '@sauce-actions/action-kit';
import { ApiError, MOBILE_REGIONS, type MobileRegion } from '@sauce-actions/api';

export function explainUploadFailure(
  error: unknown,
  context: { region: MobileRegion; apiUrl: string | undefined; file: string },
): unknown {
  if (!(error instanceof ApiError) || error.code === undefined) return error;
  const said = error.serviceMessage ? ` The service said: ${error.serviceMessage}.` : '';
  switch (String(error.code)) {
    case '1':
      return new ActionError(
        `The upload was refused (code 1): a required parameter is missing.${said} Check the inputs of the step, and that \`api-key\` (or \`oidc-token\`) holds a value.`,
        'user',
        { cause: error },
      );
    case '5': {
      const others = MOBILE_REGIONS.filter((region) => region !== context.region).join(', ');
      const where = context.apiUrl
        ? `the service at ${context.apiUrl} (region ${context.region})`
        : `the ${context.region} data center`;
      return new ActionError(
        `The API key was refused by ${where} (code 5).${said} API keys are issued per data center and work only there: check that the \`api-key\` secret holds this account's key, and that \`region\` names the data center that issued it (the others are ${others}).`,
        'user',
        { cause: error },
      );
    }
    case '105':
      return new ActionError(
        `The service could not read ${context.file} as an app (code 105).${said} Upload the APK, AAB, IPA or macOS ZIP exactly as the build produced it (not renamed, truncated or zipped again); for other apps set \`platform\`.`,
        'user',
        { cause: error },
      );
    default:
      return error;
  }
}

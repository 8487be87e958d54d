/** The upload's documented failure codes, worded as what to do next. */
import { ActionError, formatDuration, type MobileConnection } from '@sauce-actions/action-kit';
import { ApiError, MOBILE_REGIONS, TransportError } from '@sauce-actions/api';

export function explainUploadFailure(
  error: unknown,
  context: { connection: MobileConnection; file: string; timeoutMs: number },
): unknown {
  if (error instanceof TransportError && error.kind === 'timeout') {
    return new ActionError(
      'timeout',
      `The service did not take ${context.file} within ${formatDuration(context.timeoutMs)} of receiving it (\`timeout\`). It may still store the build: check the project's builds in Sauce Labs mobile app distribution before uploading again. Raise \`timeout\` for large builds or a slow service.`,
      { cause: error },
    );
  }
  if (!(error instanceof ApiError)) return error;
  // A refused OIDC token is the kit's to word: no API key was sent.
  if (error.refusedToken !== undefined) return error;
  const { region, apiUrl } = context.connection;
  const said = error.serviceMessage ? ` The service said: ${error.serviceMessage}.` : '';
  // The credentials check before a large upload is a REST call, whose refusal may be a bare 401.
  const code = error.code ?? (error.status === 401 ? 5 : undefined);
  switch (String(code)) {
    case '1':
      return new ActionError(
        'refused',
        `The upload was refused (code 1): a required parameter is missing.${said} Check the inputs of the step, and that \`api-key\` (or \`oidc-token\`) holds a value.`,
        { cause: error },
      );
    case '5': {
      const others = MOBILE_REGIONS.filter((other) => other !== region).join(', ');
      const where = apiUrl ? `the service at ${apiUrl} (region ${region})` : `the ${region} data center`;
      return new ActionError(
        'refused',
        `The API key was refused by ${where} (code 5).${said} API keys are issued per data center and work only there: check that the \`api-key\` secret holds this account's key, and that \`region\` names the data center that issued it (the others are ${others}).`,
        { cause: error },
      );
    }
    case '105':
      return new ActionError(
        'refused',
        `The service could not read ${context.file} as an app (code 105).${said} Upload the APK, AAB, IPA or macOS ZIP exactly as the build produced it (not renamed, truncated or zipped again); for other apps set \`platform\`.`,
        { cause: error },
      );
    default:
      return error;
  }
}

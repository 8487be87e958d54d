export { inputVariable, readActionMetadata, type ActionInput, type ActionMetadata } from './action-yml.ts';
export {
  startArtifactService,
  type ArtifactCall,
  type ArtifactServiceStandIn,
  type StandInArtifact,
} from './artifact-service.ts';
export { DEFAULT_CONTEXT, type ContextOverrides } from './context.ts';
export { parseKeyValueFile } from './file-commands.ts';
export { freePort } from './free-port.ts';
export {
  startGitHubApi,
  type GitHubApiStandIn,
  type StandInCheckAnnotation,
  type StandInCheckRun,
  type StandInComment,
  type StandInFault,
  type StandInIssue,
  type StandInRequest,
} from './github-api.ts';
export { createGitWorkspace, type GitWorkspace } from './git-workspace.ts';
export {
  GITHUB_OIDC_ISSUER,
  startIdTokenService,
  type IdTokenRequest,
  type IdTokenStandIn,
} from './id-token-service.ts';
export {
  endProcesses,
  signalGroup,
  TEST_RUN_VARIABLE,
  testRunEnv,
  trackProcess,
  type EndedProcess,
} from './processes.ts';
export {
  runStep,
  type FileCommand,
  type PhaseResult,
  type StepOptions,
  type StepResult,
} from './run-step.ts';
export { sourceAction } from './source-action.ts';
export {
  applyMasks,
  parseWorkflowCommands,
  type Annotation,
  type AnnotationLevel,
  type ParsedLog,
  type WorkflowCommand,
} from './workflow-commands.ts';
export {
  startWebhookReceiver,
  type ReceivedMessage,
  type WebhookAnswer,
  type WebhookReceiver,
} from './webhook-receiver.ts';

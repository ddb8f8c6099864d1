export type { MarkerScriptOptions } from './create-marker-script.js';
export { createMarkerScript, requestsWithMarker } from './create-marker-script.js';
export type { ToolResultMessage } from './find-last-tool-result.js';
export {
  findLastToolResult,
  findLastUserText,
  findToolResults,
  findUserTexts,
  messageText,
} from './find-last-tool-result.js';
export type { MockConversationItem } from './mock-api-flavour.js';
export type {
  ChatCompletionRequestBody,
  ChatMessage,
  ChatToolCall,
  MockApiFlavour,
  MockModelRequest,
  MockModelScript,
  MockScriptStep,
  MockToolCall,
  MockTurn,
  MockTurnError,
  MockTurnResolver,
} from './mock-model-script.js';
export { readConversation } from './read-conversation.js';
export type { MockModelServer, MockModelServerOptions } from './start-mock-model-server.js';
export { startMockModelServer } from './start-mock-model-server.js';

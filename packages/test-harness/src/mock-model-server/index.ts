export type { ToolResultMessage } from './find-last-tool-result.js';
export {
  findLastToolResult,
  findLastUserText,
  findToolResults,
  messageText,
} from './find-last-tool-result.js';
export type {
  ChatCompletionRequestBody,
  ChatMessage,
  ChatToolCall,
  MockModelRequest,
  MockModelScript,
  MockScriptStep,
  MockToolCall,
  MockTurn,
  MockTurnResolver,
} from './mock-model-script.js';
export type { MockModelServer, MockModelServerOptions } from './start-mock-model-server.js';
export { startMockModelServer } from './start-mock-model-server.js';

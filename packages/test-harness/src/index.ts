/**
 * @teamkit/test-harness: test doubles for Teamkit integrations.
 * Every export is listed by name; adding a name here makes it public API.
 */

// mock model server
export type {
  ChatCompletionRequestBody,
  ChatMessage,
  ChatToolCall,
  MockModelRequest,
  MockModelScript,
  MockModelServer,
  MockModelServerOptions,
  MockScriptStep,
  MockToolCall,
  MockTurn,
  MockTurnResolver,
  ToolResultMessage,
} from './mock-model-server/index.js';
export {
  findLastToolResult,
  findLastUserText,
  findToolResults,
  messageText,
  startMockModelServer,
} from './mock-model-server/index.js';

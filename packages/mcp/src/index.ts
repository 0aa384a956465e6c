/**
 * `@employee-recognition/mcp`: the Employee Recognition API as Model Context Protocol tools, for
 * apps that serve them on a transport of their own, such as behind their own auth.
 *
 * @packageDocumentation
 */
export {
  createMcpServer,
  type McpInstrumentation,
  type McpServerOptions,
  type ToolCallObserver,
  ToolSelectionError,
} from './server.js';

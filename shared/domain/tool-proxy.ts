/**
 * The requests the tool proxy answers synchronously (a Lambda invoke on AWS). It is the only
 * function that can decrypt integration credentials, so everything that needs them asks it.
 */
export type ToolProxyRequest =
  | { action: 'call_tool'; tenant_id: string; task_id: string; agent: string; tool: string; args: Record<string, unknown> }
  | { action: 'test_integration'; tenant_id: string; integration_id: string }
  | { action: 'slack_request'; integration_id: string; endpoint: 'interactions' | 'events'; headers: Record<string, string>; body: string };

/** A tool call's outcome: what the agent gets, and what its record and event say. */
export type ToolCallAnswer =
  | { outcome: 'succeeded'; integration_id: string | null; duration_ms: number; result: Record<string, unknown> }
  | { outcome: 'failed'; integration_id: string | null; duration_ms: number; error: { code: string; message: string } };

export type IntegrationTestAnswer = { ok: true; account: Record<string, string> } | { ok: false; status: 'active' | 'revoked'; error: { code: string; message: string } };

/**
 * An answer for Slack, which the route returns as is, or a refusal the route answers as a problem:
 * an integration that does not exist (404) or a signature that does not verify (401).
 */
export type SlackHttpAnswer = { status: number; headers?: Record<string, string>; body: string } | { refused: 'not_found' | 'unauthorized' | 'malformed'; detail: string };

export interface ToolProxy {
  callTool(request: Extract<ToolProxyRequest, { action: 'call_tool' }>): Promise<ToolCallAnswer>;
  testIntegration(request: Extract<ToolProxyRequest, { action: 'test_integration' }>): Promise<IntegrationTestAnswer>;
  slackRequest(request: Extract<ToolProxyRequest, { action: 'slack_request' }>): Promise<SlackHttpAnswer>;
}

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A chat model without network, for n8n's own AI Agent: a tiny OpenAI-compatible server on
 * 127.0.0.1 that n8n's OpenAI Chat Model node is pointed at (the credential's Base URL). Its first
 * answer calls one tool with scripted arguments; once the conversation holds the tool's answer, it
 * replies with that answer as text. Every request is kept, so a test can read the tools n8n offered.
 */

export interface ScriptedToolCall {
	tool: string;
	args: Record<string, unknown>;
}

export interface ChatRequest {
	messages: Array<{ role: string; content?: unknown; tool_call_id?: string }>;
	tools?: Array<{
		type: string;
		function: { name: string; description?: string; parameters?: Record<string, unknown> };
	}>;
	stream?: boolean;
}

export interface ScriptedChatModel {
	/** The Base URL to give the OpenAI credential, ending in /v1. */
	url: string;
	requests: ChatRequest[];
	close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		request.on('error', reject);
	});
}

interface AssistantMessage {
	role: 'assistant';
	content: string | null;
	tool_calls?: Array<{
		id: string;
		type: 'function';
		function: { name: string; arguments: string };
	}>;
}

/** The assistant's next message: the scripted tool call, or the tool's answer as text. */
function nextMessage(
	request: ChatRequest,
	call: ScriptedToolCall,
): { message: AssistantMessage; finish: string } {
	const toolAnswer = request.messages.find((message) => message.role === 'tool');
	if (toolAnswer === undefined) {
		return {
			message: {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: 'call_scripted_1',
						type: 'function',
						function: { name: call.tool, arguments: JSON.stringify(call.args) },
					},
				],
			},
			finish: 'tool_calls',
		};
	}
	const said =
		typeof toolAnswer.content === 'string'
			? toolAnswer.content
			: JSON.stringify(toolAnswer.content);
	return { message: { role: 'assistant', content: `Tool answered: ${said}` }, finish: 'stop' };
}

export async function startScriptedChatModel(call: ScriptedToolCall): Promise<ScriptedChatModel> {
	const requests: ChatRequest[] = [];
	const server: Server = createServer((request, response) => {
		void readBody(request).then((text) => {
			if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
				response.writeHead(404, { 'content-type': 'application/json' });
				response.end(JSON.stringify({ error: { message: `not scripted: ${request.url}` } }));
				return;
			}
			const body = JSON.parse(text) as ChatRequest;
			requests.push(body);
			const { message, finish } = nextMessage(body, call);
			const base = { id: `chatcmpl-${requests.length}`, created: 0, model: 'scripted-model' };
			if (body.stream) {
				// The same message as server-sent chunks: the delta, then the finish, then [DONE].
				const delta = message.tool_calls
					? {
							role: 'assistant',
							tool_calls: message.tool_calls.map((toolCall, index) => ({ index, ...toolCall })),
						}
					: message;
				response.writeHead(200, { 'content-type': 'text/event-stream' });
				const chunk = (choice: object) =>
					`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice] })}\n\n`;
				response.write(chunk({ index: 0, delta, finish_reason: null }));
				response.write(chunk({ index: 0, delta: {}, finish_reason: finish }));
				response.end('data: [DONE]\n\n');
				return;
			}
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify({
					...base,
					object: 'chat.completion',
					choices: [{ index: 0, message, finish_reason: finish }],
					usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
				}),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

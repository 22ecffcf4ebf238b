// A STAND-IN for the Anthropic Messages API, for driving the real Claude Code
// client in tests. It is not a model: it answers POST /v1/messages with a
// scripted turn (a tool_use of the Bash tool the client advertised, an Agent
// call, or a closing text) as server-sent events, and records every
// tool_result the client sends back, with the time it arrived.
//
// A conversation is found by the case tag in its first user message
// ("agent-sudo client case TAG"); the turn it gets is step N of that case's
// script, N being the number of assistant turns already in the conversation.
// A subagent's conversation carries its own tag (the Agent call's prompt).
// Requests with no known tag (side calls the client may make) get a short text.
//
// It listens on a Unix socket; the client reaches it through the network
// namespace bridge (netns-bridge.mjs) as http://127.0.0.1:PORT.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export type Step =
  | { bash: string; description?: string }
  /** An Agent call; background false makes the parent wait for it (the client backgrounds agents by default). */
  | { agent: string; subagentType?: string; background?: boolean }
  | { text: string }
  /** Decided from what came back for the previous step (the routed round trip). */
  | ((previous: ToolResult | undefined) => Step);

export interface ToolResult {
  tag: string;
  toolUseId: string;
  /** The tool_result's content as text. */
  content: string;
  isError: boolean;
  /** performance.now() when the tool_use was sent and when its result arrived. */
  sentAt: number;
  receivedAt: number;
}

export interface SentToolUse {
  tag: string;
  id: string;
  name: string;
  input: Record<string, unknown>;
  sentAt: number;
}

interface ContentBlock {
  type: string;
  text?: string;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}
interface Message {
  role: string;
  content: string | ContentBlock[];
}
interface MessagesRequest {
  model?: string;
  stream?: boolean;
  messages?: Message[];
  tools?: Array<{ name: string }>;
  system?: unknown;
}

const TAG = /agent-sudo client case ([A-Za-z0-9._/-]+)/;

function blocks(message: Message | undefined): ContentBlock[] {
  if (!message) return [];
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((c: { text?: string }) => c.text ?? "").join("");
  return JSON.stringify(content ?? "");
}

export class MessagesStandin {
  readonly results: ToolResult[] = [];
  readonly sent: SentToolUse[] = [];
  /** Every request's body, for checks on what reached the model (e.g. SessionStart context). */
  readonly requests: MessagesRequest[] = [];
  /** Problems the stand-in ran into (no Bash tool advertised, unexpected paths); a test asserts this stays empty. */
  readonly problems: string[] = [];
  /** performance.now() when the first request of each case arrived (the client's start-up cost, SessionStart hooks included). */
  readonly firstRequestAt = new Map<string, number>();
  private readonly scripts = new Map<string, Step[]>();
  private server?: Server;
  private counter = 0;

  /** Sets the script of a case; the client's prompt must then carry `prompt(tag)`. */
  script(tag: string, steps: Step[]): string {
    this.scripts.set(tag, steps);
    return MessagesStandin.prompt(tag);
  }

  static prompt(tag: string): string {
    return `agent-sudo client case ${tag}`;
  }

  resultsFor(tag: string): ToolResult[] {
    return this.results.filter((r) => r.tag === tag);
  }

  sentFor(tag: string): SentToolUse[] {
    return this.sent.filter((s) => s.tag === tag);
  }

  async listen(socketPath: string): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server?.once("error", reject);
      this.server?.listen(socketPath, () => resolve());
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      let body: MessagesRequest = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as MessagesRequest;
      } catch {
        // not JSON: answered below as a 400
      }
      if (req.method !== "POST" || (path !== "/v1/messages" && path !== "/v1/messages/count_tokens")) {
        this.problems.push(`unexpected request ${req.method} ${req.url}`);
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "stand-in: not served" } }));
        return;
      }
      if (path === "/v1/messages/count_tokens") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: 100 }));
        return;
      }
      if (!Array.isArray(body.messages)) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "stand-in: no messages" } }));
        return;
      }
      this.requests.push(body);
      this.answer(body, res);
    });
  }

  private answer(body: MessagesRequest, res: ServerResponse): void {
    const messages = body.messages ?? [];
    const now = performance.now();
    const first = blocks(messages[0])
      .map((b) => b.text ?? "")
      .join("\n");
    const tag = TAG.exec(first)?.[1];
    const steps = tag === undefined ? undefined : this.scripts.get(tag);
    if (tag !== undefined && !this.firstRequestAt.has(tag)) this.firstRequestAt.set(tag, now);
    // Record the tool_results this request carries (once each; the client may
    // put other user content after them). `previous` is the newest one.
    let previous: ToolResult | undefined;
    for (const message of messages) {
      for (const block of blocks(message)) {
        if (block.type !== "tool_result" || !block.tool_use_id) continue;
        const known = this.results.find((r) => r.toolUseId === block.tool_use_id);
        if (known) {
          previous = known;
          continue;
        }
        const sent = this.sent.find((s) => s.id === block.tool_use_id);
        previous = {
          tag: sent?.tag ?? tag ?? "",
          toolUseId: block.tool_use_id,
          content: resultText(block.content),
          isError: block.is_error === true,
          sentAt: sent?.sentAt ?? Number.NaN,
          receivedAt: now,
        };
        this.results.push(previous);
      }
    }
    if (tag === undefined || steps === undefined) {
      this.reply(body, res, { text: "stand-in: nothing scripted for this request" });
      return;
    }
    const turn = messages.filter((m) => m.role === "assistant").length;
    let step: Step | undefined = steps[turn];
    while (typeof step === "function") step = step(previous);
    this.reply(body, res, step ?? { text: `stand-in: case ${tag} done` }, tag);
  }

  private reply(body: MessagesRequest, res: ServerResponse, step: Exclude<Step, (p: ToolResult | undefined) => Step>, tag = ""): void {
    const model = body.model ?? "claude-stand-in";
    let content: Array<Record<string, unknown>>;
    let stop: string;
    if ("text" in step) {
      content = [{ type: "text", text: step.text }];
      stop = "end_turn";
    } else {
      const name = "bash" in step ? "Bash" : "Agent";
      if (!(body.tools ?? []).some((t) => t.name === name)) {
        this.problems.push(
          `case ${tag}: the client did not advertise a ${name} tool (tools: ${(body.tools ?? []).map((t) => t.name).join(", ")})`,
        );
        content = [{ type: "text", text: `stand-in: no ${name} tool offered` }];
        stop = "end_turn";
      } else {
        const id = `toolu_standin_${process.pid}_${++this.counter}`;
        const input =
          "bash" in step
            ? { command: step.bash, description: step.description ?? "agent-sudo client test" }
            : {
                description: "agent-sudo client test subagent",
                prompt: step.agent,
                subagent_type: step.subagentType ?? "general-purpose",
                ...(step.background === undefined ? {} : { run_in_background: step.background }),
              };
        content = [{ type: "tool_use", id, name, input }];
        stop = "tool_use";
        this.sent.push({ tag, id, name, input, sentAt: performance.now() });
      }
    }
    if (body.stream !== true) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `msg_standin_${++this.counter}`,
          type: "message",
          role: "assistant",
          model,
          content,
          stop_reason: stop,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const event = (data: Record<string, unknown>) => res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
    event({
      type: "message_start",
      message: {
        id: `msg_standin_${++this.counter}`,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    });
    content.forEach((block, index) => {
      if (block.type === "text") {
        event({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
        event({ type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } });
      } else {
        event({ type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
        event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
      }
      event({ type: "content_block_stop", index });
    });
    event({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } });
    event({ type: "message_stop" });
    res.end();
  }
}

// An OpenAI Chat Completions stream as a server sends it (server-sent events): text in pieces, tool calls with their arguments split, then usage.
import { sseText } from "./wire-server.js";

export const SSE = "text/event-stream";

/** The events of one streamed completion, ending with data: [DONE]. */
export function completion(o: { text?: string[]; calls?: { id: string; name: string; args: string[] }[]; usage?: { input: number; output: number; cached?: number } }): string {
  const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1741570283, model: "qwen2.5-coder:7b" };
  const chunk = (delta: unknown, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const ev: { data: unknown }[] = [{ data: chunk({ role: "assistant", content: "" }) }];
  for (const t of o.text ?? []) ev.push({ data: chunk({ content: t }) });
  (o.calls ?? []).forEach((c, index) => {
    ev.push({ data: chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] }) });
    for (const a of c.args) ev.push({ data: chunk({ tool_calls: [{ index, function: { arguments: a } }] }) });
  });
  ev.push({ data: chunk({}, o.calls?.length ? "tool_calls" : "stop") });
  if (o.usage)
    ev.push({
      data: {
        ...base,
        choices: [],
        usage: { prompt_tokens: o.usage.input, completion_tokens: o.usage.output, total_tokens: o.usage.input + o.usage.output, ...(o.usage.cached !== undefined ? { prompt_tokens_details: { cached_tokens: o.usage.cached } } : {}) },
      },
    });
  ev.push({ data: "[DONE]" });
  return sseText(ev);
}

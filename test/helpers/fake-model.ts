// Test helper: a model provider that answers from a list, in order, and keeps every request it was sent.
import type { CompleteOptions, ModelProvider, ModelRequest, ModelResponse, ToolCall } from "../../host/model/types.js";
import { ModelError } from "../../host/model/types.js";

/** One scripted answer: text and tool calls, or a function of the request, or an error to throw. */
export type FakeReply =
  | { readonly text?: string; readonly calls?: readonly { name: string; args: unknown; id?: string }[]; readonly usage?: Partial<ModelResponse["usage"]>; readonly wait?: number }
  | { readonly error: ModelError }
  | ((req: ModelRequest, signal?: AbortSignal) => Promise<ModelResponse> | ModelResponse);

export class FakeModel implements ModelProvider {
  readonly kind = "fake";
  readonly server = "fake";
  readonly model = "fake-1";
  readonly url = "fake:";
  readonly requests: ModelRequest[] = [];
  private n = 0;
  constructor(private readonly replies: FakeReply[]) {}

  async complete(request: ModelRequest, o: CompleteOptions = {}): Promise<ModelResponse> {
    // What the loop sent, as it was then (a JSON copy: the loop must not change it afterwards).
    this.requests.push(JSON.parse(JSON.stringify(request)));
    const r = this.replies[this.n++];
    if (r === undefined) throw new ModelError("protocol", "fake", "the fake model has no more replies");
    if (typeof r === "function") return r(request, o.signal);
    if ("error" in r) throw r.error;
    if (r.wait) {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, r.wait);
        o.signal?.addEventListener("abort", () => {
          clearTimeout(t);
          reject(new ModelError("cancelled", "fake", "cancelled"));
        }, { once: true });
      });
    }
    const calls: ToolCall[] = (r.calls ?? []).map((c, i) => ({ id: c.id ?? `call-${this.n}-${i}`, name: c.name, arguments: typeof c.args === "string" ? c.args : JSON.stringify(c.args) }));
    for (const ch of r.text ?? "") o.onEvent?.({ type: "text", delta: ch });
    return {
      text: r.text ?? "",
      toolCalls: calls,
      stopReason: calls.length > 0 ? "tool_calls" : "end",
      usage: { inputTokens: 100, outputTokens: 10, wallMs: 1, ...(r.usage ?? {}) },
      attempts: 1,
    };
  }
}

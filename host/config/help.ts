// What nodwyn says when no model is configured: one paragraph on how to write config.toml, with an Ollama and an OpenAI example.

/** An Ollama server on this machine and a model on it. */
export const OLLAMA_EXAMPLE = `[servers.local]
kind = "ollama"
url = "http://127.0.0.1:11434"

[models.qwen]
server = "local"
model = "qwen2.5-coder:7b"
context_window = 32768

[control]
model = "qwen"`;

/** OpenAI's API, the key read from OPENAI_API_KEY. */
export const OPENAI_EXAMPLE = `[servers.openai]
kind = "openai"
url = "https://api.openai.com/v1"
key_env = "OPENAI_API_KEY"

[models.mini]
server = "openai"
model = "gpt-4o-mini"
context_window = 128000
price_input = 0.15
price_output = 0.60
price_cached = 0.075

[control]
model = "mini"`;

/**
 * The explanation shown when no model is configured: where the file goes, what
 * its tables say, how to choose another model, then the two examples.
 */
export function noConfigHelp(path = "~/.config/nodwyn/config.toml"): string {
  const where = path;
  return (
    `No model is configured. nodwyn reads ${where} (NODWYN_CONFIG names another file): ` +
    `a [servers.NAME] table says where a model server is (kind "ollama", "openai" — also vLLM, llama.cpp, ` +
    `LM Studio and OpenRouter — or "anthropic", its url, and key_env, the environment variable holding its key ` +
    `if it needs one; a key is never written in the file), a [models.NAME] table names a model on that server ` +
    `with its context window and, optionally, its prices in USD per million tokens, and [control] model picks ` +
    `the default, which --model NAME or NODWYN_MODEL override; --model scripted:FILE answers from a script, ` +
    `without a server (docs/guides/models.md).\n\n` +
    `For Ollama on this machine:\n\n${OLLAMA_EXAMPLE}\n\n` +
    `For OpenAI:\n\n${OPENAI_EXAMPLE}\n`
  );
}

/** A whole chat completion as an OpenAI-compatible upstream answers it, for raw upstreams in tests. */
export function chatCompletionBody(content: string, model = 'gpt-4o-mini'): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

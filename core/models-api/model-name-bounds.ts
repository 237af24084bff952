/**
 * Model names are short (the longest real ones, a path of an org and a fine-tune, under 200 characters); a client's
 * megabytes of one are neither remembered by the memos that key on the model (their bounds count entries, not bytes)
 * nor written whole in log lines (a line as large as the request).
 */
export const MAX_MODEL_NAME_CHARS = 256;

/** Whether a memo may keep `model` as a key. */
export function isRememberableModel(model: string | undefined): model is string {
  return model !== undefined && model.length <= MAX_MODEL_NAME_CHARS;
}

/** `model` as a log line gives it: cut past MAX_MODEL_NAME_CHARS, with its length. */
export function modelForLog(model: string | undefined): string | undefined {
  return model !== undefined && model.length > MAX_MODEL_NAME_CHARS ? `${model.slice(0, MAX_MODEL_NAME_CHARS)}… (${model.length} characters)` : model;
}

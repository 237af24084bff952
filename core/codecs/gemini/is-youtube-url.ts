/** Gemini reads YouTube links given as `fileData.fileUri` (no MIME type needed): they are videos. */
export function isYouTubeUrl(url: string): boolean {
  return /^https?:\/\/(?:www\.|m\.)?(?:youtube\.com|youtu\.be)\//i.test(url);
}

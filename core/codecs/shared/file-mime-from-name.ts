const FILE_MIME_BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
  html: 'text/html',
  json: 'application/json',
};

/**
 * The MIME type of bare base64 file data, from its file name's extension: OpenAI file parts may carry raw
 * base64 with only a `filename`. PDF is the default, the one document type every platform reads.
 */
export function fileMimeFromName(filename: string | undefined): string {
  const dot = filename?.lastIndexOf('.') ?? -1;
  const extension = filename && dot !== -1 ? filename.slice(dot + 1).toLowerCase() : '';
  return FILE_MIME_BY_EXTENSION[extension] ?? 'application/pdf';
}

/** A name for a file of this MIME type that came without one (`document.pdf`): the inverse of fileMimeFromName. */
export function fileNameForMime(mediaType: string): string {
  const extension = Object.keys(FILE_MIME_BY_EXTENSION).find((ext) => FILE_MIME_BY_EXTENSION[ext] === mediaType.toLowerCase());
  return extension ? `document.${extension}` : 'document';
}

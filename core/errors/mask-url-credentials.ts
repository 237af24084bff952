/**
 * A URL with its userinfo (`user:password@`, a proxy's credentials) replaced by `***@`, for admin views and log
 * lines; other URLs unchanged. A regular expression, not `new URL()`: the rest is shown exactly as configured.
 */
export function maskUrlCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1***@');
}

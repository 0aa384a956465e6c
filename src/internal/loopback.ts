/**
 * Whether a URL's host is this machine (`localhost`, 127.0.0.0/8 or `[::1]`), where plain http
 * carries nothing past the machine: the one place the SDK accepts http without TLS (a webhook
 * receiver, an authorization server in tests and local development). Hosts are as the URL parser
 * writes them: lower case, `127.1` as `127.0.0.1`, so the test sees what is connected to.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

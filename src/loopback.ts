// Whether a host name or address is this machine only: as HOST gives it (`::1`) or as a URL's
// hostname does (`[::1]`). What listens there is reachable from nowhere else, and what is
// served from there is not github.com.

export const isLoopbackHost = (host: string) =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);

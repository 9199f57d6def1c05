/**
 * The header that carries the client IP to Better Auth (sessions record it, the rate limiter keys
 * on it). The server sets it on every request from the address it trusts; a value sent by the
 * client is always replaced.
 */
export const CLIENT_IP_HEADER = "x-pinout-client-ip";

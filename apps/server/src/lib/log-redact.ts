/**
 * What the request log may say about a URL: URLs carry bearer secrets (a guest's
 * order link, reset and verification tokens, the Google return's code and state), and a log line is
 * read by more people, for longer, than the request. Their values become `[redacted]`; the rest stays.
 */

/** Query parameters whose value is a credential, compared decoded and lower-cased. */
const SECRET_PARAMS = new Set([
  'token',
  'code',
  'state',
  'pedido',
  'access_token',
  'id_token',
  'refresh_token',
  'key',
  'secret',
  'signature',
  'password',
]);

/** Paths whose next segment is a credential, compared segment by segment, decoded and lower-cased. */
const SECRET_PATHS: readonly (readonly string[])[] = [['api', 'orders', 'link']];

export const REDACTED = '[redacted]';

const decoded = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
};

function redactPath(path: string): string {
  const raw = path.split('/');
  const seen = raw.map(decoded);
  for (const prefix of SECRET_PATHS) {
    for (let i = 0; i + prefix.length < raw.length; i++) {
      if (prefix.every((p, k) => seen[i + k] === p) && raw[i + prefix.length] !== '') {
        raw[i + prefix.length] = REDACTED;
      }
    }
  }
  return raw.join('/');
}

/**
 * How many URLs inside URLs are looked into (a gateway page's `redirect-url`, encoded once or twice);
 * past it a value that could still hold one is hidden whole.
 */
const MAX_DEPTH = 4;

/** A value decoded once, its case kept; the value itself when it is not valid percent-encoding. */
const decodedOnce = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
};

/**
 * A query value with any secret it carries hidden: a URL, a query or a path inside
 * it, raw or percent-encoded, is redacted as a URL is; an encoded one is encoded back only when
 * something was hidden, so ordinary values stay as they came.
 */
function redactValue(value: string, depth: number): string {
  if (depth > MAX_DEPTH) return /[%=?/]/.test(value) ? REDACTED : value;
  const out = value.includes('?')
    ? redactUrlAt(value, depth)
    : value.includes('=')
      ? redactQuery(value, depth)
      : redactPath(value);
  if (out !== value || !value.includes('%')) return out;
  const inner = decodedOnce(value);
  if (inner === value) return value;
  const hidden = redactValue(inner, depth + 1);
  return hidden === inner ? value : encodeURIComponent(hidden);
}

function redactQuery(query: string, depth: number): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = pair.slice(0, eq);
      return SECRET_PARAMS.has(decoded(name))
        ? `${name}=${REDACTED}`
        : `${name}=${redactValue(pair.slice(eq + 1), depth + 1)}`;
    })
    .join('&');
}

function redactUrlAt(url: string, depth: number): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return q === -1 ? redactPath(path) : `${redactPath(path)}?${redactQuery(url.slice(q + 1), depth)}`;
}

/** The URL as the log may show it: path and query with every secret value replaced, nested ones too. */
export function redactUrl(url: string): string {
  // Bounded: a URL is at most the router's limit, and each of at most MAX_DEPTH levels walks it once per
  // known prefix.
  return redactUrlAt(url, 0);
}

/** The request serializer of the log (Fastify's fields), with the URL redacted. */
export function serializeRequest(req: {
  method: string;
  url: string;
  headers?: Record<string, string | string[] | undefined>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: typeof req.headers?.['accept-version'] === 'string' ? req.headers['accept-version'] : undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

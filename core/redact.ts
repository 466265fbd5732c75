// The one place that removes secrets from text before it reaches a message, a log, a rejects file or
// a manifest. Everything a user may type or a server may echo goes through `redact`:
//   - URLs: the user-info (`scheme://user:password@host` → `scheme://***@host`): everything from
//     `://` to the LAST `@` of the line, because a password may hold `/ # ? @`, spaces or `%`
//     (base64 passwords hold `/`, `+` and `=`), and a pattern that stops at any of them prints the
//     rest in clear. On a line that has an `@` after a URL without user-info, this masks more than
//     needed; a message that says too little beats one that leaks. And the values of query
//     parameters that carry credentials (`?password=…`, `&token=…`, `api_key=…`, …);
//   - header and body text: `Bearer …` and `Basic …` credentials, `Authorization: …` and `api-key: …`
//     header values, OpenAI-style keys (`sk-…`);
//   - known secret values: those the caller passes (a password it was given) and those of the
//     environment variables that hold credentials (NEO4J_PASSWORD, OPENAI_API_KEY, *_TOKEN, …),
//     each in every form it takes in a text: raw, JSON-escaped, URL-encoded, base64 (secretForms).
// Patterns catch what is shaped like a secret; the known values catch the rest (a password echoed
// alone in a server's message).

const MASK = '***';

/**
 * `scheme://user-info@`: everything between `//` and the last `@` of the line (greedy). Not after
 * `:///` (an empty authority, as in `file:///…/node_modules/@scope/…` of a stack trace): no user-info
 * there.
 */
const USER_INFO = /([A-Za-z][A-Za-z0-9+.-]*:\/\/)(?!\/)[^\n\r]*@/g;

/** The scheme at the start of a URL. */
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/** Query or form parameters whose value is a credential: `password=…`, `access_token=…`, `api-key=…`. */
const SECRET_PARAMETER =
  /([?&;]|\b)((?:[A-Za-z0-9_-]*[_-])?(?:password|passwd|pwd|pass|token|secret|key|apikey|api_key|auth|sig|signature|credentials?))=([^&#\s"'<>]+)/gi;

/** `Bearer abc`, `Basic YWxh…`: an HTTP credential wherever it appears (a header echoed in a body). */
const AUTH_SCHEME = /\b(Bearer\s+[A-Za-z0-9._~+/=-]{4,}|Basic\s+[A-Za-z0-9+/=]{8,})/g;

/** `Authorization: Bearer …`, `"authorization": "…"`, `x-api-key: …`: the value of a credential header or field. */
const CREDENTIAL_FIELD =
  /((?:proxy-)?authorization|x-api-key|api[-_]?key|password|secret|token)("?\s*[:=]\s*"?)((?:Bearer|Basic)\s+)?[^"\s,;}&#]+/gi;

/** OpenAI-style API keys (`sk-…`, `sk-proj-…`), which endpoints quote in their error bodies. */
const API_KEY_SHAPE = /\bsk-[A-Za-z0-9_-]{8,}/g;

/** Environment variables whose values are credentials, by name. */
const SECRET_ENV_NAME = /PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|(^|_)KEY$|CREDENTIAL/i;

/**
 * Values shorter than this are not taken from the environment as secrets: replacing every "neo4j"
 * in a text because that is someone's password would garble messages without protecting anything.
 * (A secret the caller passes explicitly is replaced whatever its length.)
 */
const MIN_ENV_SECRET_LENGTH = 6;

/** The credential values found in an environment (default: this process's). */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= MIN_ENV_SECRET_LENGTH && SECRET_ENV_NAME.test(name)) out.push(value);
  }
  return out;
}

/** `\uXXXX` escapes of every character outside ASCII (as Python's json.dumps writes them), in `case`. */
function asciiEscaped(json: string, upper: boolean): string {
  return json.replace(/[\u0080-\uffff]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
}

/**
 * Every form a known secret takes in a text (issue 35: a key holding `"`, `\` or `é`, echoed by a
 * server inside a JSON error body, was stored and printed escaped, and only the raw form was
 * masked): raw; inside a JSON string (`\"`, `\\`, and `\u00e9` as servers that escape non-ASCII
 * write it), also escaped twice (JSON quoted inside JSON); URL-encoded (upper- and lower-case
 * `%xx`, a space as `%20` or `+`).
 */
export function secretForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const url = encodeURIComponent(secret);
  const forms = [
    secret,
    json,
    asciiEscaped(json, false),
    asciiEscaped(json, true),
    JSON.stringify(json).slice(1, -1),
    JSON.stringify(asciiEscaped(json, false)).slice(1, -1),
    json.replace(/\//g, '\\/'),
    url,
    url.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    url.replace(/%20/g, '+'),
    ...base64Forms(secret),
  ];
  return [...new Set(forms)].filter((f) => f.length > 0);
}

/**
 * Base64 and base64url carry at least this many characters of a secret before an aligned run
 * (below) is taken as a form of it: a shorter run of base64 letters would match unrelated text.
 */
const MIN_BASE64_RUN = 8;

/**
 * The base64 forms of a secret (issue 45: a server that echoed the key base64-encoded had it stored
 * in clear): its whole encoding, padded or not, base64url, and URL-encoded; and, for a secret
 * encoded inside a longer value (`Basic base64(user:key)`), the characters that depend on the
 * secret alone at each of the three byte alignments it can start at (the first group, shared with
 * the bytes before, and a last partial group, shared with those after, are left out).
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const whole = bytes.toString('base64');
  const forms =
    whole.length >= MIN_BASE64_RUN
      ? [whole, whole.replace(/=+$/, ''), bytes.toString('base64url'), encodeURIComponent(whole)]
      : [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const start = shift === 0 ? 0 : 4;
    const end = (shift + bytes.length) % 3 === 0 ? encoded.length : Math.floor((shift + bytes.length) / 3) * 4;
    const run = encoded.slice(start, end);
    if (run.length >= MIN_BASE64_RUN) forms.push(run, run.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/**
 * `text` with every secret replaced by `***`: URL user-info and credential parameters, HTTP
 * credentials, API keys, the `secrets` given and the credential values of the environment.
 */
export function redact(
  text: string,
  secrets: readonly string[] = [],
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  let out = text;
  // Known values first, longest first, so that a secret containing another is replaced whole.
  const known = [...secrets, ...environmentSecrets(env)].filter((s) => s.length > 0);
  const forms = [...new Set(known.flatMap(secretForms))];
  for (const form of forms.sort((a, b) => b.length - a.length)) out = out.split(form).join(MASK);
  return out
    .replace(USER_INFO, `$1${MASK}@`)
    .replace(SECRET_PARAMETER, `$1$2=${MASK}`)
    .replace(CREDENTIAL_FIELD, `$1$2$3${MASK}`)
    .replace(AUTH_SCHEME, (m: string) => `${m.split(/\s/, 1)[0]!} ${MASK}`)
    .replace(API_KEY_SHAPE, `sk-${MASK}`);
}

/**
 * A URL (a `--queue`, `--graph` or `--endpoint` value) as messages and records may show it: redacted
 * as `redact` does; a value that has a scheme but does not parse as a URL is shown as `scheme://***`
 * whole, since where its user-info ends cannot be known. Anything without a scheme (a file path) is
 * only redacted.
 */
export function redactUrl(
  url: string,
  secrets: readonly string[] = [],
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const scheme = URL_SCHEME.exec(url);
  if (scheme === null) return redact(url, secrets, env);
  if (!URL.canParse(url)) return `${scheme[1]!}://${MASK}`;
  return redact(url, secrets, env);
}

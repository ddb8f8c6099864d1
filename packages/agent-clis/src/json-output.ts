/** Parses one JSON document that is an object, or `undefined`. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Each JSON object line of JSON-lines output, skipping lines that are not JSON objects. */
export function parseJsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').flatMap((line) => {
    const parsed = line.trim() === '' ? undefined : parseJsonObject(line.trim());
    return parsed ? [parsed] : [];
  });
}

/** The `session_id` field of a CLI's JSON result (Claude Code, Gemini CLI). */
export function sessionIdField(stdout: string): string | undefined {
  // A CLI may print warnings before its JSON; the result is the last JSON line or the whole text.
  const whole = parseJsonObject(stdout.trim());
  const last = parseJsonLines(stdout).at(-1);
  const id = (whole ?? last)?.session_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

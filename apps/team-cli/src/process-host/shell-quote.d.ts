declare module 'shell-quote' {
  /** A token shell-quote could not turn into a plain word (an operator, a glob, a comment). */
  export type ParseEntry = string | { op: string; pattern?: string } | { comment: string };
  export function parse(
    command: string,
    env?: Record<string, string | undefined> | ((key: string) => string | undefined),
  ): ParseEntry[];
  /** Quotes each argument for a POSIX shell and joins them with spaces. */
  export function quote(args: readonly string[]): string;
}

// JMESPath (the standard of jmespath.org, which Bento's `jmespath` processor runs) over the maintained
// @aws-lambda-powertools/jmespath: a query's syntax check and its evaluation. A leaf (imports nothing of ours),
// shared by the gateway (which runs queries on stream messages) and the operator (which refuses a query the gateway
// could not run, before any write), so both judge a query alike. Never logs.
import { EmptyExpressionError, IncompleteExpressionError, LexerError, ParseError, search, UnknownFunctionError } from '@aws-lambda-powertools/jmespath';

/** JMESPath errors that mean the query itself is wrong (not the data it ran on). */
const QUERY_ERRORS = [LexerError, ParseError, IncompleteExpressionError, EmptyExpressionError, UnknownFunctionError];

/** Why a JMESPath query cannot run at all (its syntax, or a function the standard does not have), or undefined. */
export function jmespathQueryProblem(query: string): string | undefined {
  try {
    search(query, {});
  } catch (error) {
    if (QUERY_ERRORS.some((type) => error instanceof type)) return (error as Error).message;
  }
  return undefined;
}

/** The query's result on parsed JSON `data` (null when nothing matched); throws on a type error in the data. */
export function runJmespath(query: string, data: unknown): unknown {
  return search(query, data as Parameters<typeof search>[1]) ?? null;
}

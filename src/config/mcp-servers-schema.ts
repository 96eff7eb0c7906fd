import * as z from 'zod/mini';
import { mustBe } from './describe-value.js';

/** A server's name as the config writes it: the model sees it in every tool name (`<server>__<tool>`). */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;

const text = (what: string) => z.string(mustBe(what)).check(z.trim(), z.minLength(1));
const stringMap = (what: string) =>
  z.record(z.string(), z.string(mustBe(`${what} (a text)`)), mustBe('a mapping'));
const nameList = () => z.array(text('a tool name'), mustBe('a list of tool names'));

/**
 * One entry of `mcp_servers:`: a program spoken to over stdio (`command`) or a Streamable HTTP
 * endpoint (`url`), exactly one of them. `env` and `headers` values may use `${VAR}`.
 */
export const mcpServerSchema = z
  .strictObject(
    {
      command: z.optional(text('a program to run')),
      args: z._default(z.array(z.string(mustBe('a text')), mustBe('a list of arguments')), []),
      env: z._default(stringMap('an environment value'), {}),
      cwd: z.optional(text('a directory')),
      url: z.optional(
        text('an http:// or https:// URL').check(
          z.regex(/^https?:\/\//i, 'must be an http:// or https:// URL'),
        ),
      ),
      headers: z._default(stringMap('a header value'), {}),
      tools: z.optional(nameList()),
      exclude_tools: z._default(nameList(), []),
      confirm: z._default(z.boolean(mustBe('true or false')), true),
      timeout_s: z._default(
        z.number(mustBe('a number of seconds between 1 and 86400')).check(z.minimum(1), z.maximum(86_400)),
        60,
      ),
      enabled: z._default(z.boolean(mustBe('true or false')), true),
    },
    mustBe('a mapping with command (stdio) or url (HTTP)'),
  )
  .check(
    z.superRefine((server, context) => {
      if ((server.command === undefined) === (server.url === undefined)) {
        context.addIssue({
          code: 'custom',
          message: 'needs exactly one of command (stdio) or url (HTTP)',
          input: server,
        });
      }
    }),
  );

/** `mcp_servers:`: server name → server; an empty or absent section means none. */
export const mcpServersSchema = z
  .record(z.string(), mcpServerSchema, mustBe('a mapping of server names'))
  .check(
    z.superRefine((servers, context) => {
      for (const name of Object.keys(servers)) {
        if (MCP_SERVER_NAME.test(name)) continue;
        context.addIssue({
          code: 'custom',
          message: 'a server name may use only letters, digits, - and _ (at most 40)',
          input: name,
          path: [name],
        });
      }
    }),
  );

/** One configured MCP server, defaults filled in. */
export type McpServerConfig = z.output<typeof mcpServerSchema>;

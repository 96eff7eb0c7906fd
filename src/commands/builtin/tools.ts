import { twoColumnRows } from '../../text/terminal-rows.js';
import { CommandUsageError, type SlashCommand, wordsBefore } from '../command.js';
import type { CommandHost, ToolApproval, ToolState } from '../command-host.js';

/** The tool list laid out for `columns`: state, name, and the description in its own column. */
export function toolListRows(tools: readonly ToolState[], columns: number): string[] {
  return twoColumnRows(
    tools.map((t) => [
      `  ${t.enabled ? '●' : '○'} ${t.name}`,
      `${t.description}${t.needsConfirmation ? ' (asks first)' : ''}${t.deferred ? ' (deferred: found with find_tools)' : ''}`,
    ]),
    columns,
  );
}

/** `/tools [on|off <name> | revoke <n|all>]`: lists the tools and approvals, or changes them. */
export const toolsCommand: SlashCommand = {
  name: 'tools',
  summary: 'List tools and "always" approvals; turn a tool on/off; revoke approvals',
  usage: '/tools [on|off <name> | revoke <n|all>]',
  completion(context, args) {
    const before = wordsBefore(args);
    if (before.length === 0) return [{ value: 'on' }, { value: 'off' }, { value: 'revoke' }];
    if (before.length === 1 && (before[0] === 'on' || before[0] === 'off'))
      return context.tools.map((tool) => ({ value: tool.name, summary: tool.description }));
    if (before.length === 1 && before[0] === 'revoke' && context.approvals.length > 0)
      return [
        ...context.approvals.map((approval, index) => ({
          value: String(index + 1),
          summary: describeApproval(approval),
        })),
        { value: 'all', summary: 'every approval' },
      ];
    return [];
  },
  run(host, args) {
    if (!args) {
      listTools(host);
      return;
    }
    const revoke = /^revoke(?:\s+(\S+))?$/.exec(args);
    if (revoke) {
      revokeApprovals(host, revoke[1]);
      return;
    }
    const match = /^(on|off)\s+(\S+)$/.exec(args);
    if (!match) throw new CommandUsageError(`Expected "on <name>", "off <name>" or "revoke <n|all>".`);
    const on = match[1] === 'on';
    if (!host.tools.setEnabled(match[2], on)) {
      const names = host.tools.list().map((t) => t.name);
      const listed = names.slice(0, 20).join(', ');
      const rest = names.length > 20 ? ` and ${(names.length - 20).toLocaleString('en-US')} more` : '';
      throw new CommandUsageError(`No tool named "${match[2]}" (tools: ${listed}${rest}).`);
    }
    host.screen.notice('success', `${match[2]} ${on ? 'enabled' : 'disabled'}.`);
  },
};

/** `run_command "npm test …"`, `write_file notes.md`, or `every run_command call`. */
function describeApproval({ tool, scope }: ToolApproval): string {
  return scope ? `${tool} ${scope}` : `every ${tool} call`;
}

/** Tools `/tools` lists; the rest are counted (10,000 rows froze the screen for seconds). */
const LISTED_TOOLS = 100;

function listTools(host: CommandHost): void {
  const approvals = host.tools.approvals();
  const tools = host.tools.list();
  const more = tools.length - LISTED_TOOLS;
  host.screen.show(
    [
      'Tools:',
      ...toolListRows(tools.slice(0, LISTED_TOOLS), host.screen.columns),
      ...(more > 0
        ? [
            `  … and ${more.toLocaleString('en-US')} more (/mcp counts them by server; /tools on|off <name> takes any)`,
          ]
        : []),
      ...(approvals.length === 0
        ? []
        : [
            'Allowed without asking this session ("always"; /tools revoke <n|all> to withdraw):',
            ...approvals.map((approval, index) => `  ${index + 1}. ${describeApproval(approval)}`),
          ]),
    ].join('\n'),
  );
}

function revokeApprovals(host: CommandHost, which: string | undefined): void {
  const count = host.tools.approvals().length;
  if (count === 0) {
    host.screen.notice('info', 'No "always" approvals to revoke: every tool in tools.confirm asks first.');
    return;
  }
  const number = which === undefined ? Number.NaN : Number(which);
  if (which !== 'all' && !(Number.isInteger(number) && number >= 1 && number <= count)) {
    throw new CommandUsageError(
      `Expected an approval number from 1 to ${count}, or "all" (/tools lists them).`,
    );
  }
  const revoked = host.tools.revokeApprovals(which === 'all' ? 'all' : number);
  host.screen.notice(
    'success',
    revoked.length === 1
      ? `Revoked ${describeApproval(revoked[0])}: it asks first again.`
      : `Revoked ${revoked.length} approvals: those calls ask first again.`,
  );
}

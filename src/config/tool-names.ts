/**
 * The built-in tools a config may enable or require confirmation for. Kept here so a typo in
 * `tools.enabled` is an error at load time rather than a silently missing tool; the tool
 * registry must offer exactly these names.
 */
export const TOOL_NAMES = [
  'read_file',
  'list_directory',
  'search_files',
  'get_time',
  'write_file',
  'run_command',
] as const;

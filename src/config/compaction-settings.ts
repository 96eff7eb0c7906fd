import type { CompactionInput } from '../compaction/compactor.js';
import type { Config } from './schema.js';

/**
 * The compactor's settings from the config's `compaction:` section, read in one place: the chat
 * and `ochat eval compaction` must compact alike, or the eval measures something else.
 */
export function compactorSettings(
  compaction: Config['compaction'],
): Pick<CompactionInput, 'maxMessageChars' | 'cutLongMessages' | 'rules' | 'details'> {
  return {
    maxMessageChars: compaction.max_message_chars,
    cutLongMessages: compaction.cut_long_messages,
    rules: compaction.prompt ?? undefined,
    details: compaction.details === 'on' ? { share: compaction.details_share } : undefined,
  };
}

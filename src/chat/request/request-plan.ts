import { withoutImages } from '../../attachments/without-images.js';
import { supportsThinking, supportsVision } from '../../backend/capabilities.js';
import type { ChatRequest, ThinkSetting, ToolSchema } from '../../backend/interfaces.js';
import type { LoadRequest } from '../../backend/model-lifecycle.js';
import { type BudgetSpecs, type Budgets, resolveBudgets } from '../../compaction/budgets.js';
import {
  buildModelView,
  isRetriedReply,
  type SystemSections,
  systemHead,
  toWireMessage,
  type ViewFit,
} from '../../compaction/model-view.js';
import type { KeepAlive } from '../../config/keep-alive.js';
import type { CompactionRecord } from '../../conversation/compaction-record.js';
import type { Message, WireMessage } from '../../conversation/message.js';
import {
  estimateMessagesTokens,
  estimateToolDefinitionsTokens,
  tokensOfLength,
  toolDefinitionsLength,
} from '../../conversation/token-estimate.js';
import { lastTurnStart } from '../../conversation/turns.js';
import type { DefinitionPlan } from '../../tools/definition-budget.js';
import type { ConnectedModel } from './model-selection.js';

/**
 * What every request of the chat carries whatever its messages: the part of a plan that stays
 * while the model, the tools, the calibration, the system prompt and the summary in force stay
 * (a new message leaves it as it is; the next plan reuses it).
 */
export interface RequestFrame {
  model: ConnectedModel;
  /** The calibrated ratio every estimate of the plan divides by. */
  charsPerToken: number;
  /** Which tool definitions go (`resident`) and which wait to be found by `find_tools` (`deferred`). */
  definitions: DefinitionPlan;
  /** Estimated tokens of the resident tool definitions. */
  toolTokens: number;
  /**
   * Estimated tokens of `recall`'s definition: in `toolTokens` once part of the conversation is
   * compacted, still to come before (0: the model takes no tools).
   */
  recallTokens: number;
  /** Estimated tokens the instruction files' and pinned notes' sections add to the system message (0: none). */
  instructionTokens: number;
  /** The compaction budgets for the model's window, room left for the tool definitions, instruction files and pins. */
  budgets: Budgets;
  /** The room the newest turn must fit in (the window less the tool definitions, and the reserve). */
  fit: ViewFit;
  /** The system message alone (prompt, instruction files, pins and summary in force): what any request carries at the least. */
  head: WireMessage[];
  /** Estimated tokens of `head`. */
  headTokens: number;
  /** The system message without a summary (prompt, instruction files, pins): what no compaction can shrink. */
  systemMessage: WireMessage[];
  /** The system message's own parts, and the record in force, the frame was made of: each plan's view starts with them. */
  sections: FrameInput['sections'];
  record: CompactionRecord | undefined;
}

/**
 * One request to the model, decided once: what it sends, what it costs and what was shortened
 * to fit. The budget gate, the fit check, the request, the meter and `/context` all read it.
 */
export interface RequestPlan extends RequestFrame {
  /** The messages as sent (the model view). */
  view: WireMessage[];
  /** Old tool outputs of the newest turn shortened to fit: the chars of its head the model gets of each. */
  shortened: ReadonlyMap<Message, number>;
  /**
   * Estimated tokens of the request: its messages, the tool definitions, and a reply cut short at
   * the end (a retry's request leaves it out, the next message's carries it: the meter must not
   * read low until then).
   */
  estimate: number;
  /** Where the newest turn starts in the transcript (its user message; -1: none yet). */
  turnStart: number;
  /**
   * The newest user message was sent anyway over the window ("Send it anyway?" → y): the server
   * may cut this request (`truncate`), and no compaction runs for its turn.
   */
  oversized: boolean;
  /** What goes to the backend: any ChatBackend takes it as it is. */
  request: ChatRequest;
}

/** What a frame is made of: the model, its tools, the calibration, the budgets, the system message's parts. */
export interface FrameInput {
  model: ConnectedModel;
  charsPerToken: number;
  definitions: DefinitionPlan;
  /**
   * `recall`'s definition, when the model takes tools: sent with the others once a record is in
   * force (before that it would find nothing the model cannot see).
   */
  recall: ToolSchema | undefined;
  budgetSpecs: BudgetSpecs;
  /**
   * The system message's own parts (model-settings.ts `systemSections`: the system prompt in
   * force, the instruction files, the pinned notes), which every request carries whole.
   */
  sections: Omit<SystemSections, 'record'>;
  /** The compaction record in force: its summary is folded into the system message. */
  record: CompactionRecord | undefined;
}

/** What a plan adds to its frame: the conversation and the settings of each request. */
export interface RequestInput {
  transcript: readonly Message[];
  /** A tool result's content as sent (capped). */
  toolContent: (message: Message) => string;
  /** Tool outputs earlier requests sent shortened, and the chars of head they kept: sent so again. */
  shortened?: ReadonlyMap<Message, number>;
  think: ThinkSetting | undefined;
  options: Readonly<Record<string, unknown>>;
  keepAlive: KeepAlive | undefined;
}

/** The frame of a request: what it carries whatever its messages. */
export function frameRequest(input: FrameInput): RequestFrame {
  const { model, charsPerToken, sections, recall } = input;
  const recallSent = recall !== undefined && input.record !== undefined;
  const definitions = recallSent
    ? { ...input.definitions, resident: [...input.definitions.resident, recall] }
    : input.definitions;
  // The plan's definitions are estimated once; recall's one small schema apart (a token or two
  // over what it adds inside the list).
  const planTokens = estimateToolDefinitionsTokens(input.definitions.resident, charsPerToken);
  const recallTokens = recall ? tokensOfLength(toolDefinitionsLength([recall]), charsPerToken) : 0;
  const toolTokens = planTokens + (recallSent ? recallTokens : 0);
  const systemMessage = systemHead(sections);
  const instructionTokens =
    sections.instructions || sections.pins
      ? estimateMessagesTokens(systemMessage, charsPerToken) -
        estimateMessagesTokens(systemHead({ system: sections.system }), charsPerToken)
      : 0;
  // Every request carries the tool definitions, the instruction files and the pins whole. Recall's
  // definition alone is left to the room kept for the system message (SYSTEM_PROMPT_ROOM_RATIO):
  // the budgets are the same before and after the first compaction, and at 2k, where they are
  // scaled, taking it from all three cut a summary that held everything before, and from
  // keep_recent a whole turn of the tail, so that a summarizer continuing the chat no longer fit.
  // Every figure that guards the window (the meter, the trigger, the fit, compaction's) counts it.
  const budgets = resolveBudgets(model.numCtx, input.budgetSpecs, planTokens + instructionTokens);
  const head = systemHead({ ...sections, record: input.record });
  return {
    model,
    charsPerToken,
    definitions,
    toolTokens,
    recallTokens,
    instructionTokens,
    budgets,
    fit: { numCtx: budgets.numCtx - toolTokens, reserve: budgets.reserve, charsPerToken },
    head,
    headTokens: estimateMessagesTokens(head, charsPerToken),
    systemMessage,
    sections,
    record: input.record,
  };
}

/**
 * Plans the next request in `frame`: the model view (tool outputs capped, the newest turn's old
 * tool outputs shortened when it alone would not leave the reserve free, images left out for a
 * model that cannot see), its estimate and the request itself.
 *
 * The request has tools and thinking only where the model supports them, and `truncate: false`,
 * so a prompt over num_ctx is refused, never cut silently — except for a message the user chose
 * to send anyway ("Send it anyway?" → y): they were told what the server will cut of it, and a
 * refusal would make the choice void.
 */
export function planRequest(input: RequestInput, frame: RequestFrame): RequestPlan {
  const { model, charsPerToken, definitions, toolTokens } = frame;
  const { transcript } = input;
  const shortened = new Map<Message, number>();
  const built = buildModelView({
    ...frame.sections,
    record: frame.record,
    transcript,
    toolContent: input.toolContent,
    shortened: input.shortened,
    fit: { ...frame.fit, onShortened: (source, headChars) => shortened.set(source, headChars) },
  });
  // Images attached for an earlier (vision) model of this chat.
  const view = supportsVision(model.info) ? built : withoutImages(built);
  const last = transcript.at(-1);
  const partial =
    last && !last.replaced && isRetriedReply(last, undefined)
      ? estimateMessagesTokens([toWireMessage(last)], charsPerToken)
      : 0;
  const tools = definitions.resident;
  const turnStart = lastTurnStart(transcript);
  const oversized = transcript[turnStart]?.oversized === true;
  const request: ChatRequest = {
    ...loadRequest(model, input),
    messages: view,
    ...(supportsThinking(model.info) && input.think !== undefined ? { think: input.think } : {}),
    ...(tools.length ? { tools } : {}),
    truncate: oversized,
  };
  return {
    ...frame,
    view,
    shortened,
    estimate: estimateMessagesTokens(view, charsPerToken) + partial + toolTokens,
    turnStart,
    oversized,
    request,
  };
}

/** What a preload sends: the model with the window, options and keep_alive its chats will send. */
export function loadRequest(
  model: ConnectedModel,
  settings: { options: Readonly<Record<string, unknown>>; keepAlive: KeepAlive | undefined },
): LoadRequest {
  const { keepAlive } = settings;
  return {
    model: model.name,
    options: { ...settings.options, num_ctx: model.numCtx },
    ...(keepAlive !== undefined ? { keep_alive: keepAlive } : {}),
  };
}

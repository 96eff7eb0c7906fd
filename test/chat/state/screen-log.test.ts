import { describe, expect, test } from 'vitest';
import { ScreenLog } from '../../../src/chat/state/screen-log.js';
import { createStore } from '../../../src/chat/state/store.js';
import { initialViewState } from '../../../src/chat/state/view-state.js';

describe('ScreenLog', () => {
  test('while it holds back, the banner goes first; the rest follows in order on release', () => {
    const screen = new ScreenLog(createStore(initialViewState('m')));
    const kinds = () => screen.store.get().items.map((i) => (i.kind === 'notice' ? i.text : i.kind));
    screen.holdBack();
    screen.push({ kind: 'user', id: screen.itemId(), text: 'replayed' });
    screen.notice('success', 'Resumed session.');
    expect(kinds()).toEqual([]);
    screen.push({ kind: 'banner', id: screen.itemId(), model: 'm', host: 'h', numCtx: 4096 });
    expect(kinds()).toEqual(['banner']);
    screen.release();
    expect(kinds()).toEqual(['banner', 'user', 'Resumed session.']);
    screen.notice('info', 'after');
    expect(kinds()).toEqual(['banner', 'user', 'Resumed session.', 'after']);
  });
});

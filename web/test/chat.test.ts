import { describe, expect, it } from 'vitest';
import { MAX_CHAT_CHARS, chatText, parseChatLine } from '../src/chat';
import { parseServerMessage } from '../src/protocol';

describe('the table chat', () => {
  it('cleans a line as the server does, and bounds it', () => {
    expect(chatText('  good\nluck\t! ')).toEqual({ text: 'good luck !' });
    expect(chatText(' \n ')).toHaveProperty('error');
    expect(chatText('é'.repeat(MAX_CHAT_CHARS))).toEqual({ text: 'é'.repeat(MAX_CHAT_CHARS) });
    expect(chatText('x'.repeat(MAX_CHAT_CHARS + 1))).toEqual({ error: 'At most 300 characters (this has 301).' });
  });
  it('reads lines, alone and in the welcome', () => {
    const line = { channel: 'spectators', from: 'spectator', seat: null, player: null, text: 'psst', at: 5 };
    expect(parseChatLine(line, 'chat')).toEqual(line);
    expect(() => parseChatLine({ ...line, channel: 'everyone' }, 'chat')).toThrow();
    expect(parseServerMessage(JSON.stringify({ chat: line }))).toEqual({ type: 'chat', line });
  });
});

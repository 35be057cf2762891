import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REGISTERED_IDS } from '../labs/registry.ts';
import { RECORDED_PEERS, recordedPeerTable, speedText } from './recorded-peers.ts';

describe('recorded peers', () => {
  it('names labs that exist and raw outputs that are in docs/runs', () => {
    const ids = new Set<string>(REGISTERED_IDS);
    for (const e of RECORDED_PEERS) {
      expect(ids.has(e.lab), e.lab).toBe(true);
      for (const f of e.source.split(', ')) expect(existsSync(`docs/runs/${f}`), f).toBe(true);
    }
  });

  it('prints the ratio a reader looks for, and only for the labs asked for', () => {
    const text = recordedPeerTable(new Set(['matmul']));
    // Each matmul row's ratio, from whatever figures the table records now.
    const matmul = RECORDED_PEERS.filter((e) => e.lab === 'matmul');
    expect(matmul.length).toBeGreaterThan(0);
    for (const e of matmul) {
      expect(text).toContain(e.peer);
      expect(text).toContain(speedText(e.oursMs, e.peerMs));
    }
    expect(text).not.toContain('cuSPARSE');
    expect(speedText(0.2297, 0.2802)).toBe('1.22× faster');
    expect(speedText(4.629, 2.6824)).toBe('0.58× its speed');
  });

  it('puts this run\'s figure beside the recorded one where the bench measured the same problem', () => {
    const at = (e: (typeof RECORDED_PEERS)[number]): boolean => e.lab === 'scan' && e.live?.n === 2 ** 26 && e.live.type === 'u32';
    const text = recordedPeerTable(new Set(['scan']), (e) => (at(e) ? 0.25 : undefined));
    const peer = RECORDED_PEERS.find(at)!;
    expect(text).toContain(`0.2500 (${speedText(0.25, peer.peerMs)})`);
    // The other scan rows have no figure from this run.
    expect(text.split('\n').filter((l) => l.includes('—')).length).toBe(RECORDED_PEERS.filter((e) => e.lab === 'scan' && !at(e)).length);
  });
});

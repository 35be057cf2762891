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
    expect(text).toContain('cuBLAS SGEMM');
    expect(text).toContain('0.81× its speed'); // cuBLAS 2.6714 ms / ours 3.3127 ms at 4096³
    expect(text).not.toContain('cuSPARSE');
    expect(speedText(0.2297, 0.2802)).toBe('1.22× faster');
  });

  it('puts this run\'s figure beside the recorded one where the bench measured the same problem', () => {
    const text = recordedPeerTable(new Set(['scan']), (e) => (e.live?.n === 2 ** 26 ? 0.25 : undefined));
    expect(text).toContain('0.2500 (1.06× faster)'); // CUB 0.2661 ms / 0.25 ms
  });
});

import { memo, useEffect, useId, useRef, useState } from 'react';
import { usePrefersReducedMotion } from '../widgets/motion.ts';
import { ui } from '../../i18n/ui.ts';
import { useLocale } from '../../i18n/useLocale.ts';
import { FileName } from '../widgets/FileName.tsx';

interface Props {
  readonly wgsl: string;
  readonly wgslFile: string;
  /** Our CUDA rendering of the same kernel, for learners who come from CUDA. */
  readonly cuda?: string | undefined;
  /** 1-based line and column of the current instruction in the WGSL, if any. */
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  /** Lines to point at (a lesson's highlight): every line containing one of these snippets. */
  readonly highlight?: readonly string[] | undefined;
}

const CodeLines = memo(function CodeLines({
  code,
  current,
  label,
  highlight,
}: {
  code: string;
  current: number | undefined;
  label: string;
  highlight: readonly string[] | undefined;
}) {
  const lines = code.split('\n');
  return (
    <pre className="code-lines" aria-label={label}>
      {lines.map((text, i) => {
        const n = i + 1;
        const here = n === current;
        const marked = highlight?.some((h) => text.includes(h)) ?? false;
        return (
          <div
            key={i}
            className={`code-line${here ? ' current' : ''}${marked ? ' highlighted' : ''}`}
            data-line={n}
            data-highlighted={marked ? 'yes' : undefined}
            aria-current={here ? 'step' : undefined}
          >
            <span className="line-marker" aria-hidden="true">
              {here ? '▶' : marked ? '◆' : ' '}
            </span>
            <span className="line-number" aria-hidden="true">
              {n}
            </span>
            <code>{text || ' '}</code>
          </div>
        );
      })}
    </pre>
  );
});

/** The WGSL with the current line marked as the timeline moves, and a CUDA rendering beside it. */
export const CodePane = memo(function CodePane({ wgsl, wgslFile, cuda, line, column, highlight }: Props) {
  useLocale();
  const [tab, setTab] = useState<'wgsl' | 'cuda'>('wgsl');
  const scroller = useRef<HTMLDivElement>(null);
  const reduced = usePrefersReducedMotion();
  const id = useId();

  useEffect(() => {
    if (tab !== 'wgsl' || line === undefined) return;
    const el = scroller.current?.querySelector<HTMLElement>(`[data-line="${line}"]`);
    const box = scroller.current;
    if (!el || !box) return;
    // The whole line (it wraps when long) inside the pane, a third of the way down when it moves.
    const b = box.getBoundingClientRect();
    const l = el.getBoundingClientRect();
    if (l.top < b.top || l.bottom > b.bottom) {
      box.scrollTo({ top: box.scrollTop + l.top - b.top - Math.max(0, Math.min(box.clientHeight / 3, box.clientHeight - l.height - 8)), behavior: reduced ? 'auto' : 'smooth' });
    }
  }, [line, tab, reduced]);

  return (
    <section className="panel code-pane" aria-label={ui('code.label')}>
      <div role="tablist" aria-label={ui('code.tabs')} className="tabs">
        <button role="tab" type="button" id={`${id}-wgsl`} aria-selected={tab === 'wgsl'} aria-controls={`${id}-panel`} onClick={() => setTab('wgsl')}>
          WGSL <FileName path={wgslFile} />
        </button>
        {cuda !== undefined && (
          <button role="tab" type="button" id={`${id}-cuda`} aria-selected={tab === 'cuda'} aria-controls={`${id}-panel`} onClick={() => setTab('cuda')}>
            {ui('code.cuda')}
          </button>
        )}
      </div>
      {tab === 'wgsl' && line !== undefined && (
        <p className="code-position" data-testid="code-position">
          {column !== undefined ? ui('code.lineColumn', { line, column }) : ui('code.line', { line })}
        </p>
      )}
      {tab === 'cuda' && <p className="code-position">{ui('code.cudaNote')}</p>}
      <div ref={scroller} className="code-scroll" id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-${tab}`} tabIndex={0}>
        <CodeLines
          code={tab === 'wgsl' ? wgsl : (cuda ?? '')}
          current={tab === 'wgsl' ? line : undefined}
          label={tab === 'wgsl' ? wgslFile : ui('code.cuda')}
          highlight={tab === 'wgsl' ? highlight : undefined}
        />
      </div>
    </section>
  );
});

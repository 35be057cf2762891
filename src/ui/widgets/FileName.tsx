/**
 * A source file's name on a code tab: the folder in a span of its own, which projector mode hides
 * (small print), so the tab shows the file's own name whole at 28 px. The whole path stays in the
 * tooltip.
 */
export function FileName({ path }: { path: string }) {
  const cut = path.lastIndexOf('/') + 1;
  return (
    <span className="file-name" title={path}>
      {cut > 0 && <span className="file-dir">{path.slice(0, cut)}</span>}
      {path.slice(cut)}
    </span>
  );
}

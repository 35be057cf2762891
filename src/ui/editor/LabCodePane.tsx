import { lazy, Suspense } from 'react';
import type { LabSession } from '../../workbench/session.ts';
import { CodePane } from '../panels/CodePane.tsx';

/** The editor and CodeMirror load only here, as their own chunk: the home page never fetches them. */
const EditorPane = lazy(() => import('./EditorPane.tsx'));

/** The lab's code pane: the read-only listing while the editor loads, then the editor. */
export function LabCodePane({
  session,
  fallback,
  onWorkgroup,
}: {
  session: LabSession;
  onWorkgroup?: (workgroup: number) => void;
  fallback: { wgsl: string; file: string; cuda?: string | undefined; line?: number | undefined; column?: number | undefined } }) {
  return (
    <Suspense fallback={<CodePane wgsl={fallback.wgsl} wgslFile={fallback.file} cuda={fallback.cuda} line={fallback.line} column={fallback.column} />}>
      <EditorPane session={session} onWorkgroup={onWorkgroup} />
    </Suspense>
  );
}

/**
 * The pages that need the lab modules, the simulator's views and the lessons: loaded on demand
 * (App.tsx imports this file with `import()`), so the start page's first load stays small.
 */
import type { LabRoute } from '../../workbench/url.ts';
import { use } from 'react';
import { loadLab } from '../../labs/registry.ts';
import { LabPage } from './LabPage.tsx';

export { LessonIndex, LessonPage } from './LessonPage.tsx';

/** The lab a lab route names, with its full module, a chunk of its own (the URL already checked the id). */
export function LabRoutePage({ route }: { route: LabRoute }) {
  const lab = use(loadLab(route.lab));
  return <LabPage key={lab.id} lab={lab} route={route} />;
}

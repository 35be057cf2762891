import { lazy, Suspense, useEffect, useState } from 'react';
import { labRoute } from '../../workbench/url.ts';
import { t } from '../../i18n/messages.ts';
import { loadLocale } from '../../i18n/catalog.ts';
import { getLocale } from '../../i18n/locale.ts';
import { ui } from '../../i18n/ui.ts';
import { LAB_CATALOG } from '../../labs/catalog.ts';
import { selectGpuStatus, useAppStore } from '../../store/index.ts';
import { GpuStatusPanel } from '../shell/GpuStatusPanel.tsx';
import { Link } from '../shell/Link.tsx';
import { PanelBoundary } from '../shell/PanelBoundary.tsx';
import { VectorAddPanel } from './VectorAddPanel.tsx';

// The moving picture loads after the page (its own chunk: the trace helpers and the lab's run).
const HomeKernelDemo = lazy(() => import('./HomeKernelDemo.tsx'));

/**
 * The start page for a newcomer: what Warpscope is and the first lesson, then the labs; the
 * device's details are one click away, not the first thing on screen.
 */
export function HomePage() {
  // The lessons come with their labs' modules, a chunk the start page does not wait for: the link
  // to the first lesson appears once it has loaded.
  const [first, setFirst] = useState<{ readonly id: string; readonly title: string }>();
  useEffect(() => {
    let live = true;
    void import('../../labs/lessons.ts')
      // The lessons' catalogs register as the chunk loads: their texts in the language shown
      // arrive before the link does, so it never flashes in English.
      .then(async ({ LESSONS }) => {
        await loadLocale(getLocale()).catch(() => undefined);
        if (live) setFirst(LESSONS[0]);
      });
    return () => {
      live = false;
    };
  }, []);
  // When WebGPU is missing the device panel is what the visitor needs first: it opens by itself.
  const unavailable = useAppStore(selectGpuStatus).state === 'unavailable';
  return (
    <>
      <section className="panel home-hero" aria-labelledby="home-title" data-testid="home-hero">
        <div className="home-intro">
          <h1 id="home-title">{t('home.title')}</h1>
          <p className="home-what">{t('home.what')}</p>
          {first && (
            <p data-testid="start-first-lesson">
              <Link to={{ kind: 'lesson', lesson: first.id, step: 1 }} className="start-lesson">
                {t('home.start', { title: first.title })}
              </Link>
            </p>
          )}
          <p className="hint">
            {t('home.orIndex')} <Link to={{ kind: 'lessons' }}>{t('home.lessonIndex')}</Link>
          </p>
          <p className="hint">
            {t('home.orProgram')} <Link to={{ kind: 'program' }}>{t('home.programLink')}</Link>
          </p>
        </div>
        <PanelBoundary id="home-demo" title={ui('panel.homeDemo')}>
          <Suspense fallback={<p className="hint">{t('hero.loading')}</p>}>
            <HomeKernelDemo />
          </Suspense>
        </PanelBoundary>
      </section>
      <section className="panel" aria-labelledby="labs-title">
        <h2 id="labs-title">{t('home.labs')}</h2>
        <ul className="lab-cards">
          {LAB_CATALOG.map((lab) => (
            <li key={lab.id} className="lab-card">
              <h3>
                <Link to={labRoute(lab.id)}>{lab.title}</Link>
              </h3>
              <p>{lab.summary}</p>
              <p className="hint">{t('home.variants', { n: lab.variantCount })}</p>
            </li>
          ))}
        </ul>
      </section>
      <details className="panel device-details" data-testid="device-details" open={unavailable || undefined}>
        <summary>{t('home.device')}</summary>
        <PanelBoundary id="gpu-status" title={ui('panel.gpuStatus')}>
          <GpuStatusPanel />
        </PanelBoundary>
      </details>
      <PanelBoundary id="vector-add" title={ui('panel.vectorAdd')}>
        <VectorAddPanel />
      </PanelBoundary>
    </>
  );
}

import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useShortcuts } from './shortcuts.ts';
import { labRoute, type Route } from '../../workbench/url.ts';
import { labInfo, LAB_CATALOG } from '../../labs/catalog.ts';
import { selectChrome, selectRoute, useAppStore } from '../../store/index.ts';
import { HelpOverlay } from './HelpOverlay.tsx';
import { HomePage } from '../pages/HomePage.tsx';
import { Link } from './Link.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { Notices } from './Notices.tsx';
import { ui } from '../../i18n/ui.ts';
import { useLocale } from '../../i18n/useLocale.ts';
import { PanelBoundary } from './PanelBoundary.tsx';
import { UpdateNotice } from './UpdateNotice.tsx';
import { t } from '../../i18n/messages.ts';
import { loadLocale } from '../../i18n/catalog.ts';
import { getLocale } from '../../i18n/locale.ts';

// Lab and lesson pages bring the lab modules, the simulator's views and the lessons: a chunk of
// their own, fetched when one opens, so the start page loads only what it shows.
// The chunk registers its catalogs as it loads; in another language the page waits for their
// translations too, so it never shows English for a moment.
const pages = () =>
  import('../pages/pages.tsx').then(async (m) => {
    await loadLocale(getLocale()).catch(() => undefined);
    return m;
  });
const LabRoutePage = lazy(() => pages().then((m) => ({ default: m.LabRoutePage })));
const LessonPage = lazy(() => pages().then((m) => ({ default: m.LessonPage })));
const LessonIndex = lazy(() => pages().then((m) => ({ default: m.LessonIndex })));
const LivePage = lazy(() => pages().then((m) => ({ default: m.LivePage })));
// The program page brings the host interpreter's client and its editor: a chunk of its own.
const ProgramPage = lazy(() =>
  import('../program/ProgramPage.tsx').then(async (m) => {
    await loadLocale(getLocale()).catch(() => undefined);
    return { default: m.ProgramPage };
  }),
);

function Loading() {
  return (
    <p className="panel page-loading" role="status" data-testid="page-loading">
      {t('app.loadingPage')}
    </p>
  );
}

function Page() {
  const route = useAppStore(selectRoute);
  if (route.kind === 'home') return <HomePage />;
  return (
    <Suspense fallback={<Loading />}>
      {route.kind === 'lab' ? (
        <LabRoutePage route={route} />
      ) : route.kind === 'lesson' ? (
        <LessonPage route={route} />
      ) : route.kind === 'live' ? (
        <LivePage room={route.room} />
      ) : route.kind === 'program' ? (
        <ProgramPage />
      ) : (
        <LessonIndex />
      )}
    </Suspense>
  );
}

/** One key per page: a page's error box goes when another page opens. */
function pageKey(route: Route): string {
  if (route.kind === 'lab') return `lab/${route.lab}`;
  if (route.kind === 'lesson') return `lesson/${route.lesson}`;
  // One key for /live and /live/CODE: joining moves from one to the other without losing the page.
  if (route.kind === 'live') return 'live';
  return route.kind;
}

export function App() {
  const [help, setHelp] = useState(false);
  const [blank, setBlank] = useState(false);
  // Every view below re-renders with the app when the language changes.
  const locale = useLocale();
  const chrome = useAppStore(selectChrome);
  const route = useAppStore(selectRoute);
  const setChrome = useAppStore((s) => s.setChrome);
  const projector = chrome.mode === 'projector';
  useShortcuts({
    help: () => setHelp((h) => !h),
    projector: () => setChrome({ mode: projector ? 'normal' : 'projector' }),
    fullscreen: () => {
      if (document.fullscreenElement) void document.exitFullscreen();
      else void document.documentElement.requestFullscreen?.().catch(() => undefined);
    },
    // Blanking is for the projector: a teacher hides the screen while the class talks.
    ...(projector ? { blank: () => setBlank((b) => !b) } : {}),
  });

  useEffect(() => {
    const title =
      route.kind === 'lab'
        ? ui('app.titleLab', { lab: labInfo(route.lab)?.title ?? ui('app.titleLab.fallback') })
        : route.kind === 'lesson' || route.kind === 'lessons'
          ? ui('app.titleLessons')
          : route.kind === 'program'
            ? ui('app.titleProgram')
            : 'Warpscope';
    document.title = title;
  }, [route, locale]);

  return (
    <div className={`app mode-${chrome.mode}${chrome.embed ? ' embed' : ''}`}>
      <a className="skip-link" href="#main">
        {ui('app.skip')}
      </a>
      {!chrome.embed && (
        <header className="app-header">
          <p className="brand">
            <Link to={{ kind: 'home' }}>
              <span className="logo" aria-hidden="true">
                ▮▮▮▮
              </span>{' '}
              Warpscope
            </Link>
          </p>
          <nav aria-label={ui('app.nav')}>
            <ul>
              <li>
                <Link to={{ kind: 'lessons' }} className={route.kind === 'lessons' || route.kind === 'lesson' ? 'current' : undefined}>
                  {ui('app.lessons')}
                </Link>
              </li>
              <li>
                <Link to={{ kind: 'program' }} className={route.kind === 'program' ? 'current' : undefined}>
                  {ui('app.program')}
                </Link>
              </li>
              <li>
                {/* Keyed by the page: going to another page closes the menu. */}
                <LabsMenu
                  key={route.kind === 'lab' ? route.lab : route.kind}
                  current={route.kind === 'lab' ? route.lab : undefined}
                />
              </li>
            </ul>
          </nav>
          <button type="button" className="help-button" onClick={() => setHelp(true)} aria-keyshortcuts="?">
            {ui('app.shortcuts')}
          </button>
          <LanguageSwitch />
        </header>
      )}
      <main id="main" tabIndex={-1}>
        <Notices />
        <UpdateNotice />
        {/* A page that fails keeps the header and navigation; going elsewhere starts afresh. */}
        <PanelBoundary key={pageKey(route)} id="page" title={ui('app.thisPage')}>
          <Page />
        </PanelBoundary>
      </main>
      {help && <HelpOverlay onClose={() => setHelp(false)} />}
      {blank && projector && (
        <div className="blank-screen" role="button" tabIndex={0} aria-label={ui('app.blanked')} data-testid="blank-screen" onClick={() => setBlank(false)}>
          <span className="sr-only">{ui('app.blanked')}</span>
        </div>
      )}
    </div>
  );
}

/**
 * The labs, one click away: a disclosure (a native `details`, so Enter and Space open it and the
 * list is in the tab order once open) that closes on another page, on Escape or when focus leaves it. Eleven
 * lab names in a row did not fit a 1 440 px header.
 */
function LabsMenu({ current }: { current: string | undefined }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const close = () => {
    if (ref.current) ref.current.open = false;
  };
  const currentLab = LAB_CATALOG.find((l) => l.id === current);
  return (
    <details
      ref={ref}
      className="labs-menu"
      data-testid="labs-menu"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && ref.current?.open) {
          e.stopPropagation();
          close();
          ref.current.querySelector('summary')?.focus();
        }
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) close();
      }}
    >
      <summary className={currentLab ? 'current' : undefined}>
        {currentLab ? t('nav.labsIn', { lab: currentLab.title }) : t('nav.labs')}
      </summary>
      <ul>
        {LAB_CATALOG.map((lab) => (
          <li key={lab.id} onClick={close}>
            <Link to={labRoute(lab.id)} className={lab.id === current ? 'current' : undefined}>
              {lab.title}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

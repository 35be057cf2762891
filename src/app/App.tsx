import { useEffect, useRef, useState } from 'react';
import { t } from '../i18n/messages.ts';
import { useShortcuts } from './shortcuts.ts';
import { labRoute, type Route } from './url.ts';
import { findLab, LABS } from '../labs/registry.ts';
import { selectChrome, selectRoute, useAppStore } from '../store/index.ts';
import { HelpOverlay } from '../views/HelpOverlay.tsx';
import { HomePage } from '../views/HomePage.tsx';
import { LabPage } from '../views/LabPage.tsx';
import { LessonIndex, LessonPage } from '../views/LessonPage.tsx';
import { Link } from '../views/Link.tsx';
import { Notices } from '../views/Notices.tsx';
import { PanelBoundary } from '../views/PanelBoundary.tsx';
import { UpdateNotice } from '../views/UpdateNotice.tsx';

function Page() {
  const route = useAppStore(selectRoute);
  if (route.kind === 'lab') {
    const lab = findLab(route.lab);
    if (lab) return <LabPage key={lab.id} lab={lab} route={route} />;
  }
  if (route.kind === 'lesson') return <LessonPage route={route} />;
  if (route.kind === 'lessons') return <LessonIndex />;
  return <HomePage />;
}

/** One key per page: a page's error box goes when another page opens. */
function pageKey(route: Route): string {
  if (route.kind === 'lab') return `lab/${route.lab}`;
  if (route.kind === 'lesson') return `lesson/${route.lesson}`;
  return route.kind;
}

export function App() {
  const [help, setHelp] = useState(false);
  const [blank, setBlank] = useState(false);
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
        ? `${findLab(route.lab)?.title ?? 'Lab'} — Warpscope`
        : route.kind === 'lesson' || route.kind === 'lessons'
          ? 'Lessons — Warpscope'
          : 'Warpscope';
    document.title = title;
  }, [route]);

  return (
    <div className={`app mode-${chrome.mode}${chrome.embed ? ' embed' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
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
          <nav aria-label="Lessons and labs">
            <ul>
              <li>
                <Link
                  to={{ kind: 'lessons' }}
                  className={route.kind === 'lessons' || route.kind === 'lesson' ? 'current' : undefined}
                >
                  Lessons
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
            ? Shortcuts
          </button>
        </header>
      )}
      <main id="main" tabIndex={-1}>
        <Notices />
        <UpdateNotice />
        {/* A page that fails keeps the header and navigation; going elsewhere starts afresh. */}
        <PanelBoundary key={pageKey(route)} id="page" title="this page">
          <Page />
        </PanelBoundary>
      </main>
      {help && <HelpOverlay onClose={() => setHelp(false)} />}
      {blank && projector && (
        <div
          className="blank-screen"
          role="button"
          tabIndex={0}
          aria-label="Screen blanked. Press B or click to show it again."
          data-testid="blank-screen"
          onClick={() => setBlank(false)}
        >
          <span className="sr-only">Screen blanked. Press B or click to show it again.</span>
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
  const currentLab = LABS.find((l) => l.id === current);
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
        {LABS.map((lab) => (
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

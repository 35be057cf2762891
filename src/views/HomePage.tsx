import { labRoute } from '../app/url.ts';
import { LABS } from '../labs/registry.ts';
import { GpuStatusPanel } from './GpuStatusPanel.tsx';
import { Link } from './Link.tsx';
import { PanelBoundary } from './PanelBoundary.tsx';
import { VectorAddPanel } from './VectorAddPanel.tsx';

/** The start page: what the device offers, the labs, and the first kernel to run. */
export function HomePage() {
  return (
    <>
      <PanelBoundary id="gpu-status" title="the GPU status panel">
        <GpuStatusPanel />
      </PanelBoundary>
      <section className="panel" aria-labelledby="labs-title">
        <h2 id="labs-title">Labs</h2>
        <ul className="lab-cards">
          {LABS.map((lab) => (
            <li key={lab.id} className="lab-card">
              <h3>
                <Link to={labRoute(lab.id)}>
                  {lab.title}
                </Link>
              </h3>
              <p>{lab.summary}</p>
              <p className="hint">{lab.variants.length} variants</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="panel" aria-labelledby="home-lessons-title">
        <h2 id="home-lessons-title">Lessons</h2>
        <p>
          Step-through lessons over the labs, with questions answered from the simulation itself:{' '}
          <Link to={{ kind: 'lessons' }}>open the lesson index</Link>.
        </p>
      </section>
      <PanelBoundary id="vector-add" title="the vector-add editor">
        <VectorAddPanel />
      </PanelBoundary>
    </>
  );
}

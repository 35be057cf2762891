/** The services (`src/workbench/services.ts`) in React context: the composition root provides them. */
import { createContext, use } from 'react';
import type { Services } from '../../workbench/services.ts';

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = use(ServicesContext);
  if (!services) throw new Error('No services: render the app inside <ServicesContext value={createServices(…)}> (src/app/main.tsx does).');
  return services;
}

import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Schemas } from './api-types';

export type Session = Schemas['Session'];

export const SessionContext = createContext<{ session: Session | null; setSession: (next: Session | null) => void }>({
  session: null,
  setSession: () => {},
});

export const useSession = () => useContext(SessionContext);
/** Write controls are disabled for a viewer (the API refuses them anyway). */
export const useCanWrite = () => useContext(SessionContext).session?.scope === 'admin';

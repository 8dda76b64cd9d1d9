import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export interface Session {
  id: string;
  team_id: string;
  scope: 'admin' | 'viewer';
  email: string | null;
  expires_at: string;
  csrf_token: string;
}

export const SessionContext = createContext<{ session: Session | null; setSession: (s: Session | null) => void }>({
  session: null,
  setSession: () => {},
});

export const useSession = () => useContext(SessionContext);
/** Write controls are disabled for a viewer (the API refuses them anyway). */
export const useCanWrite = () => useContext(SessionContext).session?.scope === 'admin';

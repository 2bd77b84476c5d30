// "from <file>" on a card of a resource that came from a configuration file: a short path, the
// whole one in its title.
import { useApp } from '../../lib/app-context';
import { shortPath } from './config-slice';
import './config.css';

export function FromFile({ id }: { id: string }) {
  const { managedOf, config } = useApp();
  const origin = managedOf(id);
  if (!origin) return null;
  return (
    <span className="from-file hint" data-testid="from-file" title={origin.file}>
      from <span className="mono">{shortPath(origin.file, config?.folder ?? null)}</span>
    </span>
  );
}

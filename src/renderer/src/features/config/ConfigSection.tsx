// Settings → Configuration: Steward's instances, automations and webhooks as YAML files — export
// them, apply files (a dry run shown first), and a folder applied whenever it changes.
import { ConfigApply } from './ConfigApply';
import { ConfigExport } from './ConfigExport';
import { ConfigFolder } from './ConfigFolder';
import './config.css';

export function ConfigSection() {
  return (
    <section className="card config-section" aria-labelledby="config-title">
      <h3 id="config-title">Configuration</h3>
      <div className="hint">Instances, automations and webhooks as files you can keep in git, review and apply.</div>
      <ConfigExport />
      <ConfigApply />
      <ConfigFolder />
    </section>
  );
}

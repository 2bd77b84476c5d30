// Export: every instance, automation and webhook as one YAML file (steward.yaml), downloaded, and
// what it held said in words. Secrets are named, never written.
import { useState } from 'react';
import { useApp } from '../../lib/app-context';
import { ErrorLine, useAction } from '../../ui/widgets';
import { exportWords, oneYaml } from './config-slice';

export const exportFileName = 'steward.yaml';

function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the blob to the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ConfigExport() {
  const { exportConfig } = useApp();
  const [held, setHeld] = useState<string>();
  const action = useAction();
  const run = async () => {
    const files = await action.run(exportConfig);
    if (!files) return;
    download(oneYaml(files), exportFileName);
    setHeld(exportWords(files));
  };
  return (
    <div>
      <h4>Export</h4>
      <div className="hint">Every instance, automation and webhook as one YAML file. Secrets are never in it: a secret is named by the name it is stored under, never written, and webhook tokens stay in Steward.</div>
      <div className="bar" style={{ marginTop: 8, marginBottom: 0 }}>
        <button type="button" onClick={() => void run()} disabled={action.busy}>Export {exportFileName}</button>
        {held && <span role="status" data-testid="export-held">{exportFileName}: {held}</span>}
      </div>
      <ErrorLine message={action.error?.message} />
    </div>
  );
}

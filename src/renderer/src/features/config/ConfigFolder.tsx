// The watched folder: "Apply a folder whenever it changes" — its absolute path (a git checkout),
// Save and Stop watching, and what became of it: the last apply's time, commit and summary, or
// the error that refused it (the last good state stays in force). Read again every few seconds
// while shown: the folder's applies have no live event of their own.
import { useEffect, useState } from 'react';
import { useApp } from '../../lib/app-context';
import { ErrorLine, Field, Time, useAction } from '../../ui/widgets';

export const folderPollMs = 3_000;

const changeWords = { add: 'Added', change: 'Changed', delete: 'Deleted' } as const;

const isAbsolute = (path: string) => /^(\/|[A-Za-z]:[\\/])/.test(path);

/** The refusal's first line, then its problems (`file:line:col: problem`) one a line. */
function FolderProblems({ message }: { message: string }) {
  const [first, ...rest] = message.split('\n').filter((line) => line.trim() !== '');
  return (
    <>
      <div>{first}</div>
      {rest.length > 0 && <ul aria-label="Problems">{rest.map((line, index) => <li key={index}>{line}</li>)}</ul>}
    </>
  );
}

export function ConfigFolder() {
  const { config, loadConfig, setConfigFolder, toast } = useApp();
  const [folder, setFolder] = useState(config?.folder ?? '');
  const [problem, setProblem] = useState<string>();
  const action = useAction();
  const watched = config?.folder ?? null;
  useEffect(() => setFolder(watched ?? ''), [watched]);
  useEffect(() => {
    const timer = setInterval(() => void loadConfig().catch(() => undefined), folderPollMs);
    return () => clearInterval(timer);
  }, [loadConfig]);
  const save = async (next: string | null) => {
    if (next !== null && !isAbsolute(next.trim())) return setProblem('Enter the folder’s absolute path, e.g. /home/me/steward-config.');
    setProblem(undefined);
    const done = await action.run(async () => setConfigFolder(next === null ? null : next.trim()).then(() => true));
    if (done) toast('success', next === null ? 'Stopped watching the folder.' : 'Folder saved and applied.');
  };
  const last = config?.lastApplied;
  const refused = config?.error;
  return (
    <form noValidate aria-label="Configuration folder" onSubmit={(event) => { event.preventDefault(); void save(folder); }}>
      <h4>Apply a folder whenever it changes</h4>
      <Field label="Folder" error={problem ?? action.errorFor('folder')} hint="A git checkout of your configuration: every .yaml file in it is applied whenever it changes (a file removed deletes what it held). Resources it manages say so on their cards.">
        <input className="mono" value={folder} onChange={(event) => { setFolder(event.target.value); setProblem(undefined); action.clearFor('folder'); }} placeholder="/home/me/steward-config" spellCheck={false} autoComplete="off" />
      </Field>
      <div className="bar" style={{ marginBottom: 0 }}>
        <button type="submit" className="primary" disabled={action.busy}>Save folder</button>
        {watched !== null && <button type="button" disabled={action.busy} onClick={() => void save(null)}>Stop watching</button>}
      </div>
      <ErrorLine message={action.generalError(['folder'])} />
      {watched !== null && (
        <div data-testid="folder-state" style={{ marginTop: 8 }}>
          <div className="hint">Watching <span className="mono">{watched}</span></div>
          {refused && (
            <div className="config-alert error" role="alert" data-testid="folder-error">
              <strong>The folder was refused <Time iso={refused.at} />{refused.commit && <> at commit <code className="commit" title={refused.commit}>{refused.commit.slice(0, 7)}</code></>}; the last good state stays in force.</strong>
              <FolderProblems message={refused.message} />
            </div>
          )}
          {last ? (
            <div data-testid="folder-last-applied">
              Last applied <Time iso={last.at} />{last.commit && <> at commit <code className="commit" title={last.commit}>{last.commit.slice(0, 7)}</code></>}: {last.summary}
              {last.changes.length > 0 && (
                <ul className="folder-changes" aria-label="What it changed">
                  {last.changes.map((change) => <li key={`${change.kind}-${change.name}`}>{changeWords[change.action]} {change.kind} “{change.name}”</li>)}
                </ul>
              )}
            </div>
          ) : !refused && <div className="hint">Not applied yet.</div>}
        </div>
      )}
    </form>
  );
}

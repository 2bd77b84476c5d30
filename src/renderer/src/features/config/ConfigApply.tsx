// Apply: YAML files chosen here are first applied as a dry run, which changes nothing and shows
// what would change (with the choice of what to delete that the files no longer name); only
// "Apply these changes" applies them, all at once or not at all. A refused file lists each
// problem by file, line and column, and says that nothing changed. Choosing and the prune choice stay
// enabled while a dry run is asked for (a control disabled under the keyboard's focus drops it).
import { useEffect, useId, useRef, useState } from 'react';
import type { ConfigFile, ConfigPlan } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { ApiError } from '../../lib/api';
import { ConfigChanges } from './ConfigChanges';
import { type PruneMode, configProblems } from './config-slice';

const pruneChoices: { mode: PruneMode; label: string }[] = [
  { mode: 'none', label: 'Keep everything the files do not name' },
  { mode: 'files', label: 'Delete what came from these files before and they no longer name' },
  { mode: 'all', label: 'Delete everything the files do not name (every instance, automation and webhook but the default instance)' },
];

/** A refusal as shown: the problems one a line when the files were refused, else the message. */
function Refusal({ error }: { error: ApiError }) {
  const problems = error.code === 'invalid_config' ? configProblems(error.message) : [];
  if (problems.length === 0) return <div className="config-alert error" role="alert"><strong>Not applied:</strong> {error.message}</div>;
  return (
    <div className="config-alert error" role="alert" data-testid="config-problems">
      <strong>Nothing changed: the files were refused.</strong> Fix these and choose the files again:
      <ul aria-label="Problems">{problems.map((problem, index) => <li key={index}>{problem}</li>)}</ul>
    </div>
  );
}

export function ConfigApply() {
  const { applyConfig } = useApp();
  const input = useRef<HTMLInputElement>(null);
  const pruneName = useId();
  const [files, setFiles] = useState<ConfigFile[]>([]);
  const [prune, setPrune] = useState<PruneMode>('none');
  const [plan, setPlan] = useState<ConfigPlan>();
  const [result, setResult] = useState<ConfigPlan>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  // Only the latest request's answer is shown: a prune chosen twice quickly shows the second plan.
  const latest = useRef(0);
  const outcome = useRef<HTMLDivElement>(null);
  // Applied: the focus goes to what happened (the button pressed is gone).
  useEffect(() => {
    if (result) outcome.current?.focus();
  }, [result]);

  const attempt = async (work: () => Promise<ConfigPlan>, shown: (plan: ConfigPlan) => void) => {
    const request = ++latest.current;
    setBusy(true);
    setError(undefined);
    try {
      const plan = await work();
      if (request === latest.current) shown(plan);
    } catch (caught) {
      if (request === latest.current) setError(caught instanceof ApiError ? caught : new ApiError('internal_error', String(caught)));
    } finally {
      if (request === latest.current) setBusy(false);
    }
  };
  const dryRun = (chosen: ConfigFile[], mode: PruneMode) => {
    setPlan(undefined);
    setResult(undefined);
    return attempt(() => applyConfig(chosen, { dryRun: true, prune: mode }), setPlan);
  };
  const choose = async (list: FileList | null) => {
    if (!list || list.length === 0) return;
    // Sent under their file names: errors and "from <file>" name them so.
    const chosen = await Promise.all([...list].map(async (file) => ({ path: file.name, text: await file.text() })));
    setFiles(chosen);
    if (input.current) input.current.value = '';
    await dryRun(chosen, prune);
  };
  const choosePrune = (mode: PruneMode) => {
    setPrune(mode);
    // The changes shown are always the ones a confirm would make.
    if (files.length > 0) void dryRun(files, mode);
  };
  const confirm = () =>
    attempt(() => applyConfig(files, { dryRun: false, prune }), (applied) => {
      setPlan(undefined);
      setFiles([]);
      setResult(applied);
    });

  return (
    <div>
      <h4>Apply</h4>
      <div className="hint">Choose one or more .yaml files (an export, or files you keep in git): you see what would change before anything changes. Resources are matched by kind and name.</div>
      <div className="choose-files" style={{ marginTop: 8 }}>
        <button type="button" onClick={() => input.current?.click()}>Choose YAML files…</button>
        <input ref={input} type="file" multiple accept=".yaml,.yml,application/yaml,text/yaml" className="visually-hidden" tabIndex={-1} aria-label="YAML files to apply" data-testid="config-files" onChange={(event) => void choose(event.target.files)} />
        {files.length > 0 && <span className="hint" data-testid="chosen-files">{files.map((file) => file.path).join(', ')}</span>}
      </div>
      {files.length > 0 && (
        <fieldset>
          <legend>What the files no longer name</legend>
          {pruneChoices.map((choice) => (
            <label key={choice.mode}>
              <input type="radio" name={pruneName} value={choice.mode} checked={prune === choice.mode} onChange={() => choosePrune(choice.mode)} />
              <span>{choice.label}</span>
            </label>
          ))}
          {prune === 'all' && <div className="warning warning-box" role="status">Everything these files do not name is deleted, with its runs and history, even what you made by hand here. Read the deletes below before you apply.</div>}
        </fieldset>
      )}
      {busy && <div className="hint" role="status">Working…</div>}
      {error && <Refusal error={error} />}
      {plan && files.length > 0 && (
        <>
          <ConfigChanges plan={plan} heading="Dry run, nothing changed yet:" />
          <div className="bar" style={{ marginBottom: 0 }}>
            <button type="button" className="primary" disabled={busy || plan.changes.length === 0} onClick={() => void confirm()}>Apply these changes</button>
            <button type="button" disabled={busy} onClick={() => { setFiles([]); setPlan(undefined); setError(undefined); }}>Cancel</button>
            {plan.changes.length === 0 && <span className="hint">Nothing to change: Steward is already as the files say.</span>}
          </div>
        </>
      )}
      {result && <div ref={outcome} tabIndex={-1}><ConfigChanges plan={result} heading={result.applied ? 'Applied:' : 'Nothing was applied:'} /></div>}
    </div>
  );
}

// What the desktop app says when its core cannot start, in the error box shown before it quits: the
// data folder held by another Steward, the port taken, or whatever else went wrong.
import { DataDirInUseError } from '../core/data-lock';

export function startupErrorMessage(error: unknown, context: { port: number; dataDir: string }): { title: string; content: string } {
  const title = 'Steward could not start';
  if (error instanceof DataDirInUseError) return { title, content: error.message };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return { title, content: `Port ${context.port} is already in use (perhaps by \`steward serve\` on another data folder). Stop what holds it, or start Steward with STEWARD_PORT set to another port.` };
  }
  const reason = error instanceof Error ? error.message : String(error);
  return { title, content: `${reason}\n\nData folder: ${context.dataDir}` };
}

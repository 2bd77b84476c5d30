// The preload: the renderer's only door into the main process. It exposes nothing yet beyond the
// app's identity; the typed API bridge arrives with the desktop issue.
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('steward', Object.freeze({ platform: process.platform }));

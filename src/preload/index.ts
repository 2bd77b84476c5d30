// The preload: the renderer's only door into the main process. It exposes the contract's
// operations and the live events, nothing else (no ipcRenderer, no Node).
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge';

contextBridge.exposeInMainWorld('steward', createBridge(ipcRenderer, process.platform));

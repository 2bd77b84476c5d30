// Settings over the API: read whole, changed in part (see ../settings.ts for where they live).
import type { Settings, SettingsPatch } from '../../../shared/contract';
import { readSettings, writeSettings } from '../settings';
import type { ServiceContext } from './context';

export function createSettingsService(context: ServiceContext, runnerSettingsChanged: () => void) {
  const { store } = context;
  return {
    get: (): Settings => readSettings(store),
    update(patch: SettingsPatch): Settings {
      store.transaction(() => writeSettings(store, patch));
      // A higher maxRunning may let queued runs start now.
      runnerSettingsChanged();
      return readSettings(store);
    },
  };
}

export { openWorkbench, type Workbench, type WorkbenchOptions } from './open-workbench.js';
export { configDir, historyFile, sessionFile, stateDir } from './paths.js';
export { resumeSession, saveSession } from './session-store.js';

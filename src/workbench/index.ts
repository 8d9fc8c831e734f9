export { configDir, stateDir, sessionFile, historyFile } from './paths.js';
export { saveSession, resumeSession } from './session-store.js';
export { openWorkbench, type Workbench, type WorkbenchOptions } from './open-workbench.js';

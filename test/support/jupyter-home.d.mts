/** A throw-away Jupyter home under test/.tmp. */
export interface JupyterHome {
  dir: string;
  env: Record<string, string>;
}

/** A fresh home in `test/.tmp/kernel/<name>`: emptied when made, left after (for a look), never piling up. */
export function jupyterHome(name: string): JupyterHome;

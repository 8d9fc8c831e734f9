/**
 * The kernel's own log: its stderr, which Jupyter shows in its console, never a cell's output. On
 * its own (no other import) so that the kernel's entry point has it before it loads the rest.
 */

/** Writes a line to the kernel's own stderr (Jupyter's log), bypassing the cells' capture. */
export function kernelLog(): (line: string) => void {
  const write = process.stderr.write.bind(process.stderr);
  return (line) => {
    write(`[scratchlab kernel] ${line}\n`);
  };
}

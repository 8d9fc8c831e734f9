/**
 * A lighter program for tslab's converter in the type-check worker (./type-check-worker.ts).
 *
 * tslab's converter runs TypeScript's watch API with its default "builder" program, which, for
 * every new program, maps which file references which over every file of the program (the
 * standard library and `@types/node` included) so that it could re-check only what changed. The
 * converter never asks for that: it checks and emits its one cell file each time. Profiled over a
 * 100-cell session, the map took about 45% of a check and its garbage much of the rest. Here the
 * watch gets a plain program (reusing the old one's source files, as the builder does) that answers
 * the few builder calls the converter and the watch make. It emits declarations only, and the
 * converter's CommonJS pass is skipped: the worker checks cells; what runs is ./cell-script.ts's output.
 *
 * Worker-only: the worker's module cache is its own, so the kernel's thread keeps tslab as it is.
 */
import { createRequire } from 'node:module';
import type * as TypeScript from '@tslab/typescript-for-tslab';

type Ts = typeof TypeScript;
type Builder = TypeScript.EmitAndSemanticDiagnosticsBuilderProgram;

/** A builder-shaped wrapper of a plain program: the calls tslab's converter and the watch make. */
function plainBuilder(program: TypeScript.Program): Builder {
  const dependencies = (file: TypeScript.SourceFile): readonly string[] => [
    file.fileName,
    // The program's own source files (a cell's local `.ts` imports): the builder's dependencies
    // of a cell that tslab filters to source files anyway.
    ...program
      .getSourceFiles()
      .filter((f) => f !== file && !f.isDeclarationFile && !program.isSourceFileFromExternalLibrary(f))
      .map((f) => f.fileName),
  ];
  const builder = {
    getProgram: () => program,
    getProgramOrUndefined: () => program,
    releaseProgram: () => {},
    getCompilerOptions: () => program.getCompilerOptions(),
    getSourceFile: (name: string) => program.getSourceFile(name),
    getSourceFiles: () => program.getSourceFiles(),
    getOptionsDiagnostics: (token?: TypeScript.CancellationToken) => program.getOptionsDiagnostics(token),
    getGlobalDiagnostics: (token?: TypeScript.CancellationToken) => program.getGlobalDiagnostics(token),
    getConfigFileParsingDiagnostics: () => program.getConfigFileParsingDiagnostics(),
    getSyntacticDiagnostics: (file?: TypeScript.SourceFile, token?: TypeScript.CancellationToken) =>
      program.getSyntacticDiagnostics(file, token),
    getDeclarationDiagnostics: (file?: TypeScript.SourceFile, token?: TypeScript.CancellationToken) =>
      program.getDeclarationDiagnostics(file, token),
    getSemanticDiagnostics: (file?: TypeScript.SourceFile, token?: TypeScript.CancellationToken) =>
      program.getSemanticDiagnostics(file, token),
    emit: (
      file?: TypeScript.SourceFile,
      write?: TypeScript.WriteFileCallback,
      token?: TypeScript.CancellationToken,
      _onlyDts?: boolean,
      transformers?: TypeScript.CustomTransformers,
      // Declarations only: the worker reads a cell's declarations; what runs is ./cell-script.ts's.
    ) => program.emit(file, write, token, true, transformers),
    getAllDependencies: dependencies,
    getCurrentDirectory: () => program.getCurrentDirectory(),
    getSemanticDiagnosticsOfNextAffectedFile: () => undefined,
    emitNextAffectedFile: () => undefined,
  };
  return builder as unknown as Builder;
}

/**
 * Makes tslab's converter, loaded after this call, use plain programs (see the file's comment).
 * TypeScript's exports are read-only, so the converter gets a copy of them with its own
 * `createWatchCompilerHost`, through the module cache.
 */
export function usePlainPrograms(): void {
  const fromTslab = createRequire(createRequire(import.meta.url).resolve('tslab/dist/converter'));
  const id = fromTslab.resolve('@tslab/typescript-for-tslab');
  const ts = fromTslab(id) as Ts;
  const cached = fromTslab.cache[id];
  if (!cached) throw new Error('TypeScript is not in the module cache');
  const createHost = ts.createWatchCompilerHost as (...args: unknown[]) => unknown;
  const createProgram = (
    rootNames: readonly string[] | undefined,
    options: TypeScript.CompilerOptions | undefined,
    host: TypeScript.CompilerHost | undefined,
    old: Builder | undefined,
    configFileParsingDiagnostics?: readonly TypeScript.Diagnostic[],
    projectReferences?: readonly TypeScript.ProjectReference[],
  ): Builder => {
    // Called without roots when the program is up to date but the config's errors changed.
    if (rootNames === undefined || options === undefined) {
      if (!old) throw new Error('no program to keep');
      return old;
    }
    const program = ts.createProgram({
      rootNames,
      options,
      host,
      oldProgram: old?.getProgram(),
      configFileParsingDiagnostics,
      projectReferences,
    });
    // Binds every file, as the builder's reference map did: the converter reads the cell's
    // top-level names from its binding (`locals`) before it asks for anything else.
    program.getTypeChecker();
    return plainBuilder(program);
  };
  cached.exports = {
    ...ts,
    createWatchCompilerHost: (...args: unknown[]) => {
      // (rootFiles, options, system, createProgram, …): tslab passes no createProgram.
      if (args[3] == null) args[3] = createProgram;
      return createHost(...args);
    },
    // The converter turns its JavaScript output into CommonJS; the worker runs none of it.
    transpileModule: (): TypeScript.TranspileOutput => ({ outputText: '', diagnostics: [] }),
  };
}

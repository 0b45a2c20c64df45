// Run a Python script on the offline bundle's engine: Pyodide (CPython compiled to WebAssembly,
// from the bundle's own copy of the npm package) in Node.js, with the bundle's wheels installed.
//
//   node scripts/pyodide_run.mjs BUNDLE [--wheels DIR]... [--mount HOST:GUEST]... [--cwd GUEST]
//        [--env NAME=VALUE]... -- SCRIPT|-m MODULE [ARG]...
//
// BUNDLE is what scripts/build_offline.py built (its pyodide/ and wheels/); --wheels adds the
// wheels of another folder (the tests' pytest, for one); --mount shows a host folder inside
// Pyodide's file system; SCRIPT is a path inside it (-m MODULE runs an installed module, as
// `python -m` does); --env sets os.environ. The script's stdout and stderr are this process's,
// byte for byte; its exit status (SystemExit, 1 for an uncaught exception) is this process's.
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

function parse(argv) {
  const split = argv.indexOf("--");
  if (split < 1 || split === argv.length - 1) {
    throw new Error("usage: pyodide_run.mjs BUNDLE [--wheels DIR]... [--mount HOST:GUEST]... [--cwd GUEST] [--env NAME=VALUE]... -- SCRIPT|-m MODULE [ARG]...");
  }
  const opts = { bundle: resolve(argv[0]), wheels: [], mounts: [], cwd: null, env: {}, script: argv.slice(split + 1) };
  for (let i = 1; i < split; i += 2) {
    const value = argv[i + 1];
    if (argv[i] === "--wheels") opts.wheels.push(resolve(value));
    else if (argv[i] === "--mount") {
      const at = value.lastIndexOf(":");
      opts.mounts.push([resolve(value.slice(0, at)), value.slice(at + 1)]);
    } else if (argv[i] === "--cwd") opts.cwd = value;
    else if (argv[i] === "--env") {
      const at = value.indexOf("=");
      opts.env[value.slice(0, at)] = value.slice(at + 1);
    }
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return opts;
}

const wheelsIn = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".whl"))
    .sort()
    .map((f) => join(dir, f));

const opts = parse(process.argv.slice(2));
const write = (stream) => ({
  write: (buffer) => {
    stream.write(buffer);
    return buffer.length;
  },
});
// The bundle's own runtime files, not node_modules': the test proves what the page will load.
const { loadPyodide } = await import(pathToFileURL(join(opts.bundle, "pyodide", "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: join(opts.bundle, "pyodide") + "/", env: opts.env });
py.setStdout(write(process.stdout));
py.setStderr(write(process.stderr));
const quiet = { messageCallback: () => {}, errorCallback: (m) => process.stderr.write(`${m}\n`) };
await py.loadPackage([...wheelsIn(join(opts.bundle, "wheels")), ...opts.wheels.flatMap(wheelsIn)], quiet);
for (const [host, guest] of opts.mounts) {
  py.FS.mkdirTree(guest);
  py.FS.mount(py.FS.filesystems.NODEFS, { root: host }, guest);
}
py.globals.set("_run_args", py.toPy({ argv: opts.script, cwd: opts.cwd }));
const status = await py.runPythonAsync(`
import os, runpy, sys, traceback
_args = _run_args
del _run_args
if _args["cwd"]:
    os.chdir(_args["cwd"])
sys.argv = list(_args["argv"])
try:
    if sys.argv[0] == "-m":
        del sys.argv[0]
        runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
    else:
        runpy.run_path(sys.argv[0], run_name="__main__")
    _status = 0
except SystemExit as exit:
    _status = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    if not isinstance(exit.code, int | None):
        print(exit.code, file=sys.stderr)
except BaseException:
    traceback.print_exc()
    _status = 1
sys.stdout.flush()
sys.stderr.flush()
_status
`);
process.exitCode = status;

// MiniZinc's WebAssembly build (npm package minizinc 4.5.1: MiniZinc 2.9 with Chuffed 0.14.0, Gecode, HiGHS,
// COIN-BC) run in Node, on one thread: node mzn-wasm.cjs [minizinc arguments]. Files named in the arguments, and the
// .mzn files beside a named model, are copied into its file system by base name. The package's worker script is loaded as CommonJS from DIR
// (setup.sh puts it there); it listens for messages and posts its output, which this file provides.
//   usage: KCP_MZN_WASM=DIR node mzn-wasm.cjs --solver chuffed -s model.mzn data.dzn
const fs = require('fs'), path = require('path');
const dir = process.env.KCP_MZN_WASM || path.join(__dirname, '.wasm');
const dist = path.join(dir, 'node_modules/minizinc/dist/');
let handler;
globalThis.addEventListener = (t, f) => { if (t === 'message') handler = f; };
const args = process.argv.slice(2);
const files = {};
// Each named file, and the .mzn files beside a named model (what it may include), by base name.
const margs = args.map(a => {
  if (!(fs.existsSync(a) && fs.statSync(a).isFile())) return a;
  if (a.endsWith('.mzn'))
    for (const f of fs.readdirSync(path.dirname(a)))
      if (f.endsWith('.mzn')) files[f] = fs.readFileSync(path.join(path.dirname(a), f), 'utf8');
  const b = path.basename(a);
  files[b] = fs.readFileSync(a, 'utf8');
  return b;
});
globalThis.postMessage = (m) => {
  if (m.type === 'ready') { handler({ data: { jsonStream: false, files, args: margs } }); return; }
  if (m.type === 'exit') { if (m.stdout) process.stdout.write(m.stdout); if (m.stderr) process.stderr.write(m.stderr); process.exit(m.code === 0 ? 0 : 1); }
  else if (m.type === 'stdout') process.stdout.write(m.value); else if (m.type === 'stderr') process.stderr.write(m.value);
};
require(path.join(dir, 'worker.cjs'));
handler({ data: { wasmURL: dist + 'minizinc.wasm', dataURL: dist + 'minizinc.data' } });

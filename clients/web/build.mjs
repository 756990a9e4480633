// Builds the playground into dist/: TypeScript generated from the repository's .proto by protoc-gen-es,
// bundled with esbuild, beside index.html and style.css.
//
// protoc is the one in the project's Python environment (grpcio-tools), so nothing else needs installing;
// google/rpc/error_details.proto (ErrorInfo, BadRequest: the details of every error the service sends)
// comes from the same environment (googleapis-common-protos).
//   MJSVC_PYTHON   the Python with grpcio-tools (default: ../../.venv/bin/python)
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const python = process.env.MJSVC_PYTHON || join(root, '.venv', 'bin', 'python');
if (!process.env.MJSVC_PYTHON && !existsSync(python)) {
  console.error(`build: no Python with grpcio-tools at ${python}.\n`
    + 'Run `make setup` at the repository root first (it creates .venv), or set MJSVC_PYTHON to a Python that '
    + 'has grpcio-tools and googleapis-common-protos installed.');
  process.exit(2);
}
const esbuild = await import('esbuild'); // after the check above: a clone without .venv hears about it first

const [wktDir, googleDir] = execFileSync(python, ['-c', [
  'import os, grpc_tools, google.rpc.error_details_pb2 as details',
  'print(os.path.join(os.path.dirname(grpc_tools.__file__), "_proto"))',
  'print(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(details.__file__)))))',
].join('; ')], { encoding: 'utf8' }).trim().split('\n');

const gen = join(here, 'src', 'gen');
rmSync(gen, { recursive: true, force: true });
mkdirSync(gen, { recursive: true });
execFileSync(python, ['-m', 'grpc_tools.protoc',
  `-I${join(root, 'proto')}`, `-I${googleDir}`, `-I${wktDir}`,
  `--plugin=protoc-gen-es=${join(here, 'node_modules', '.bin', 'protoc-gen-es')}`,
  `--es_out=${gen}`, '--es_opt=target=ts',
  'mahjong/v1/mahjong.proto', 'google/rpc/error_details.proto'], { stdio: 'inherit' });

const dist = join(here, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);
await esbuild.build({
  entryPoints: [join(here, 'src', 'main.ts')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  outfile: join(dist, 'app.js'),
  legalComments: 'linked',
  logLevel: 'warning',
});
for (const f of ['index.html', 'style.css', 'favicon.svg']) copyFileSync(join(here, f), join(dist, f));
console.log(`built ${dist}`);

"""Generate the Python protobuf and gRPC modules from proto/ into mjsvc/gen/.

protoc writes absolute imports (`from mahjong.v1 import ...`); they are rewritten to live
under `mjsvc.gen` so that nothing has to be put on sys.path.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
OUT = Path(__file__).resolve().parent / "gen"


def generate() -> None:
    import grpc_tools
    from grpc_tools import protoc

    OUT.mkdir(exist_ok=True)
    protos = sorted(str(p.relative_to(PROTO_DIR)) for p in PROTO_DIR.rglob("*.proto"))
    include = str(Path(grpc_tools.__file__).parent / "_proto")
    args = ["protoc", f"-I{PROTO_DIR}", f"-I{include}", f"--python_out={OUT}", f"--pyi_out={OUT}",
            f"--grpc_python_out={OUT}", *protos]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    for path in [*OUT.rglob("*.py"), *OUT.rglob("*.pyi")]:  # not the .pyc files of an earlier run
        text = path.read_text()
        fixed = re.sub(r"^from mahjong\.", "from mjsvc.gen.mahjong.", text, flags=re.M)
        if fixed != text:
            path.write_text(fixed)
    for d in [OUT, *[p for p in OUT.rglob("*") if p.is_dir() and p.name != "__pycache__"]]:
        (d / "__init__.py").touch()


if __name__ == "__main__":
    generate()
    print(f"generated protobuf modules in {OUT.relative_to(ROOT)}", file=sys.stderr)
